/**
 * Differential parity: verity against a paper's released code on the same local model and the same
 * evidence, claim by claim and prompt by prompt.
 *
 *   npm run bench:parity -- --method emulate --reference /work/parity-refs/emulate
 *       [--dataset factcheck_bench] [--claims 30] [--seed 7] [--fidelity released|verity] [--resume]
 *       [--out eval/bench/results/parity-emulate-<dataset>.json]
 *
 * Both sides talk to the local model server (VERITY_LLM=local) through a recording proxy that pins
 * temperature 0 and one seed; the released code's Serper calls are answered by a loopback server from
 * verity's recorded-web search. The released code is run from --reference, never copied; its Python
 * dependencies go into a venv under .verity/parity/<method>/. MERMAID runs through parity/mermaid-parity.ts
 * (its own evidence server and driver; no --resume: both sides' evidence memory lives through the run).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { CommandProgress } from '../../src/cli/progress';
import { loadConfig } from '../../src/config/config';
import { resolveLlmEndpoint } from '../../src/llm/endpoint';
import { projectRoot } from '../../src/project-root';
import { createRecordedProvider } from '../../src/search/recorded-provider';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { verifyClaimWorkflow } from '../../workflows';
import { loadDataset, stratifiedSample, type DatasetClaim } from '../../src/datasets';
import { labelAgreement, wilsonInterval } from './parity/agreement';
import { startEvidenceServer } from './parity/evidence-server';
import { firstDivergence, identicalPromptShare, samePrompt, type RecordedCall } from './parity/prompt-diff';
import { parityModelEnv } from './parity/model-env';
import { startRecordingProxy } from './parity/recording-proxy';
import { ingestIndex, runMain, startBenchStack, writeReport } from './support/bench-stack';
import { exitWithUsageIfAsked } from './support/usage';
import { runMermaidParity } from './parity/mermaid-parity';
import { emulateSettingsSchema } from '../../src/methods/emulate/settings-schema';
import { fireSettingsSchema } from '../../src/methods/fire/settings-schema';
import { driverNotes, lastDriverRow, referenceLabel } from './parity/driver-output';

exitWithUsageIfAsked(__filename);

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const RECORDED_WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const DATASET_FILES: Record<string, string> = {
  factcheck_bench: 'dev/factcheckbench.jsonl',
  bingcheck: 'dev/bingcheck.jsonl',
  factool_qa: 'dev/factool_qa.jsonl',
};
/** What the released code's control loop imports (not its notebook's requirements). */
const PYTHON_DEPENDENCIES: Record<string, string[]> = {
  emulate: ['openai==1.70.0', 'pandas', 'html2text', 'requests'],
  // FIRE's requirements.txt pins, without torch, transformers, sentence_transformers, langchain_anthropic
  // and matplotlib (stubbed by the driver: only the SBERT early stop and the plotting use them).
  fire: ['langchain_core==0.3.15', 'langchain_openai==0.2.5', 'numpy==2.1.3', 'Requests==2.32.3', 'termcolor==2.5.0'],
};
const DRIVERS: Record<string, string> = {
  emulate: path.join(__dirname, 'parity', 'emulate_driver.py'),
  fire: path.join(__dirname, 'parity', 'fire_driver.py'),
};

const { values: args } = parseArgs({
  options: {
    method: { type: 'string' },
    reference: { type: 'string' },
    dataset: { type: 'string', default: 'factcheck_bench' },
    claims: { type: 'string', default: '30' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string' },
    resume: { type: 'boolean', default: false },
    fidelity: { type: 'string', default: 'released' },
  },
});

/**
 * verity's settings for the method: `released` renders the reference's own prompt templates (read from
 * --reference at start) with the code's parsing; `verity` is verity's own wording (`fidelity: paper`).
 */
function veritySettings(method: string, reference: string): Record<string, unknown> {
  if (args.fidelity !== 'released' && args.fidelity !== 'verity') throw new Error(`--fidelity ${args.fidelity}: released or verity`);
  const released = args.fidelity === 'released';
  if (method === 'emulate') return released ? { emulate: emulateSettingsSchema.parse({ releasedPromptsFrom: reference, codeCompat: true }) } : {};
  // The driver replaces FIRE's SBERT early stop by the lexical similarity: verity uses the same.
  return { fire: fireSettingsSchema.parse({ similarity: 'lexical', ...(released ? { releasedPromptsFrom: reference } : {}) }) };
}

function ensureVenv(method: string): string {
  const dir = path.join(projectRoot(), '.verity', 'parity', method, 'venv');
  const python = path.join(dir, 'bin', 'python');
  if (!fs.existsSync(python)) {
    execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
    execFileSync(python, ['-m', 'pip', 'install', '-q', ...PYTHON_DEPENDENCIES[method]!], { stdio: 'inherit' });
  }
  return python;
}

async function claimsOf(dataset: string, n: number, seed: number): Promise<DatasetClaim[]> {
  const file = DATASET_FILES[dataset];
  if (!file) throw new Error(`unknown dataset ${dataset}; known: ${Object.keys(DATASET_FILES).join(', ')}`);
  const binary = (await loadDataset(path.join(SHARED_DATA, file))).claims.filter((c) => c.labelNorm !== 'NEI');
  return n < binary.length ? stratifiedSample(binary, n, { seed }) : binary;
}

async function main(): Promise<void> {
  const method = args.method ?? '';
  if (method === 'mermaid') {
    const command = `npm run bench:parity -- ${process.argv.slice(2).join(' ')}`;
    if (args.fidelity !== 'released' && args.fidelity !== 'verity') throw new Error(`--fidelity ${args.fidelity}: released or verity`);
    return runMermaidParity({ reference: args.reference ?? '', dataset: args.dataset!, claims: Number(args.claims), seed: Number(args.seed), ...(args.out ? { out: args.out } : {}), command, fidelity: args.fidelity });
  }
  if (!DRIVERS[method]) throw new Error(`--method ${method || '(missing)'}: one of ${[...Object.keys(DRIVERS), 'mermaid'].join(', ')}`);
  if (!args.reference || !fs.existsSync(args.reference)) throw new Error('--reference <checkout of the released code> is required');
  const reference = path.resolve(args.reference);
  const referenceCommit = execFileSync('git', ['-C', reference, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const referenceDirty = execFileSync('git', ['-C', reference, 'diff', 'HEAD'], { encoding: 'utf8' });
  process.stdout.write(`reference ${reference} at ${referenceCommit}\npatch to the reference: ${referenceDirty ? `\n${referenceDirty}` : `none (endpoints redirected by the driver, ${path.relative(projectRoot(), DRIVERS[method]!)})`}\n`);
  const python = ensureVenv(method);
  const seed = Number(args.seed);
  const claims = await claimsOf(args.dataset!, Number(args.claims), seed);
  const settings = veritySettings(method, reference);

  const localConfig = loadConfig({ ...process.env, VERITY_LLM: 'local' });
  const local = await resolveLlmEndpoint(localConfig);
  const model = localConfig.llm.models.default;
  const proxy = await startRecordingProxy(local.baseUrl, seed);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startBenchStack({
    prefix: `b-par-${randomBytes(4).toString('hex')}`,
    esRequestTimeoutMs: 120_000,
    ingest: (es, prefix) => ingestIndex(es, webIndexName(prefix), RECORDED_WEB, WEB_TARGET),
    deleteIndices: true,
    env: parityModelEnv(proxy.url, model, seed),
  });
  const evidence = await startEvidenceServer(createRecordedProvider({ es: stack.es, index: webIndexName(stack.prefix) }));
  const started = Date.now();
  const runId = `parity-${randomBytes(3).toString('hex')}`;
  const referenceLabels = new Map<string, string>();
  const verityLabels = new Map<string, string>();
  const referenceCalls = new Map<string, RecordedCall[]>();
  const verityCalls = new Map<string, RecordedCall[]>();
  state = { method, seed, model, referenceCommit, referenceLabels, verityLabels, referenceCalls, verityCalls, searches: evidence.searches, started };
  const done: DatasetClaim[] = [];
  const resumed = args.resume ? resumedClaims(outPath(method), { method, seed, referenceCommit }) : new Map<string, ResumedClaim>();
  const progress = new CommandProgress({ label: `bench parity ${method}`, unit: 'claims', intervalMs: stack.config.progressIntervalMs });
  try {
    const work = fs.mkdtempSync(path.join(projectRoot(), '.verity', 'parity', method, 'run-'));
    const claimsFile = path.join(work, 'claims.jsonl');
    const outFile = path.join(work, 'reference.jsonl');
    for (const claim of claims) {
      const before = resumed.get(claim.id);
      if (before) {
        referenceLabels.set(claim.id, before.reference);
        verityLabels.set(claim.id, before.verity);
        referenceCalls.set(claim.id, before.calls.reference ?? []);
        verityCalls.set(claim.id, before.calls.verity ?? []);
        evidence.searches.set(`ref:${claim.id}`, Array.from({ length: before.referenceSearches }, () => '(from the resumed report)'));
        done.push(claim);
        progress.update({ done: done.length, total: claims.length });
        continue;
      }
      const tagged = `ref:${claim.id}`;
      fs.writeFileSync(claimsFile, `${JSON.stringify({ id: tagged, claim: claim.claim })}\n`);
      const t0 = Date.now();
      // Asynchronous: the proxy and the evidence server the driver calls live in this process's event loop.
      const { stderr } = await promisify(execFile)(python, [DRIVERS[method]!, reference, proxy.url, evidence.url, model, claimsFile, outFile], { maxBuffer: 64 * 1024 * 1024 });
      if (done.length === 0) process.stdout.write(`${driverNotes(stderr).join('\n')}\n`);
      referenceLabels.set(claim.id, referenceLabel(method, lastDriverRow(fs.readFileSync(outFile, 'utf8'))));
      referenceCalls.set(claim.id, proxy.calls.get(tagged) ?? []);
      const t1 = Date.now();
      proxy.currentTag = `verity:${claim.id}`;
      const input = buildVerifyInput(stack.config, { claim: claim.claim, method: method as 'emulate' | 'fire', runId, claimId: claim.id, dataset: claim.dataset, model, settings });
      const verdict = await stack.client.workflow.execute(verifyClaimWorkflow, { workflowId: workflowIdOf(input), taskQueue: stack.config.temporal.taskQueue, args: [input] });
      verityLabels.set(claim.id, verdict.label);
      verityCalls.set(claim.id, proxy.calls.get(proxy.currentTag) ?? []);
      done.push(claim);
      progress.update({ done: done.length, total: claims.length });
      report(done, false);
      process.stderr.write(`  ${claim.id}: reference ${referenceLabels.get(claim.id)} (${((t1 - t0) / 1000).toFixed(0)} s), verity ${verdict.label} (${((Date.now() - t1) / 1000).toFixed(0)} s)\n`);
    }
  } finally {
    progress.finish();
    await evidence.close();
    await stack.close();
    await proxy.close();
    await local.close();
  }

  report(claims);
}

/** Prints and writes the comparison of the claims done so far (called after every claim, so a long run leaves a partial report). */
interface ReportState {
  method: string;
  seed: number;
  model: string;
  referenceCommit: string;
  referenceLabels: Map<string, string>;
  verityLabels: Map<string, string>;
  referenceCalls: Map<string, RecordedCall[]>;
  verityCalls: Map<string, RecordedCall[]>;
  searches: Map<string, string[]>;
  started: number;
}
let state: ReportState | undefined;

function report(done: DatasetClaim[], finalReport = true): void {
  const { claims, method, seed, model, referenceCommit, referenceLabels, verityLabels, referenceCalls, verityCalls, searches, started } = { claims: done, ...state! };
  const perClaim = claims.map((claim) => {
    const ref = referenceCalls.get(claim.id) ?? [];
    const ver = verityCalls.get(claim.id) ?? [];
    return {
      id: claim.id,
      gold: claim.labelNorm,
      reference: referenceLabels.get(claim.id),
      verity: verityLabels.get(claim.id),
      llmCalls: { reference: ref.length, verity: ver.length },
      searches: { reference: searches.get(`ref:${claim.id}`)?.length ?? 0 },
      prompts: identicalPromptShare(ref, ver),
      firstStepIdentical: ref.length > 0 && ver.length > 0 && samePrompt(ref[0]!.prompt, ver[0]!.prompt),
      firstDivergence: firstDivergence(ref, ver),
    };
  });
  const agreement = labelAgreement(perClaim.map((c) => ({ reference: c.reference ?? '', verity: c.verity ?? '' })));
  const prompts = perClaim.reduce((sum, c) => ({ identical: sum.identical + c.prompts.identical, compared: sum.compared + c.prompts.compared }), { identical: 0, compared: 0 });
  const firstStep = wilsonInterval(perClaim.filter((c) => c.firstStepIdentical).length, perClaim.length);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `${method} parity on ${args.dataset}, ${claims.length} claims; model ${model} (local llama.cpp, 1 slot), temperature 0, seed ${seed}; reference ${referenceCommit.slice(0, 7)}`,
    `label agreement        ${agreement.successes}/${agreement.n} = ${pct(agreement.share)}  95% CI [${pct(agreement.low)}, ${pct(agreement.high)}]`,
    `identical prompts      ${prompts.identical}/${prompts.compared} calls at the same step`,
    `identical first prompt ${firstStep.successes}/${firstStep.n} = ${pct(firstStep.share)}  95% CI [${pct(firstStep.low)}, ${pct(firstStep.high)}]`,
    '',
    'claim            gold      reference  verity     LLM calls ref/verity  searches ref',
    ...perClaim.map((c) => `${c.id.padEnd(16)} ${String(c.gold).padEnd(9)} ${String(c.reference).padEnd(10)} ${String(c.verity).padEnd(10)} ${`${c.llmCalls.reference}/${c.llmCalls.verity}`.padEnd(21)} ${c.searches.reference}`),
    '',
    ...perClaim
      .filter((c) => c.reference !== c.verity && c.firstDivergence)
      .map((c) => `--- ${c.id}: first divergence at step ${c.firstDivergence!.step} (${c.firstDivergence!.kind})\n${c.firstDivergence!.diff}\n`),
  ];
  if (finalReport) process.stdout.write(`${lines.join('\n')}\n${claims.length} claims in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  const command = `npm run bench:parity -- ${process.argv.slice(2).join(' ')}`;
  writeReport(outPath(method), { command, method, fidelity: args.fidelity, dataset: args.dataset, model, temperature: 0, seed, referenceCommit, agreement, prompts, firstStep, perClaim, calls: Object.fromEntries(claims.map((c) => [c.id, { reference: referenceCalls.get(c.id), verity: verityCalls.get(c.id) }])) });
}

function outPath(method: string): string {
  return args.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', `parity-${method}-${args.dataset}.json`);
}

interface ResumedClaim {
  reference: string;
  verity: string;
  referenceSearches: number;
  calls: { reference?: RecordedCall[]; verity?: RecordedCall[] };
}

/** --resume: the claims an earlier report of the same comparison finished (a run cut short goes on where it stopped). */
function resumedClaims(file: string, same: { method: string; seed: number; referenceCommit: string }): Map<string, ResumedClaim> {
  const resumed = new Map<string, ResumedClaim>();
  if (!fs.existsSync(file)) return resumed;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    method?: string;
    dataset?: string;
    seed?: number;
    referenceCommit?: string;
    fidelity?: string;
    perClaim?: { id: string; reference?: string; verity?: string; searches?: { reference?: number } }[];
    calls?: Record<string, ResumedClaim['calls']>;
  };
  const matches = report.method === same.method && report.dataset === args.dataset && report.seed === same.seed && report.referenceCommit === same.referenceCommit && report.fidelity === args.fidelity;
  if (!matches) throw new Error(`--resume: ${file} is another comparison (method, dataset, seed, reference commit or fidelity differ); move it away or drop --resume`);
  for (const claim of report.perClaim ?? []) {
    if (claim.reference === undefined || claim.verity === undefined) continue;
    resumed.set(claim.id, { reference: claim.reference, verity: claim.verity, referenceSearches: claim.searches?.reference ?? 0, calls: report.calls?.[claim.id] ?? {} });
  }
  process.stdout.write(`resuming: ${resumed.size} claims from ${path.relative(projectRoot(), file)}\n`);
  return resumed;
}

runMain(main);
