/**
 * MERMAID memory benchmark (paper Fig. 3, spec §10.1–10.2): external tool calls on Factcheck-Bench
 * (631 true/false claims, in dataset order) with the evidence memory on and off, and the memory
 * hit rate, from one command. Every claim is a real verifyClaim workflow on Temporal, with the
 * recorded-web and Wikipedia tools over Elasticsearch and the built-in simulator as the LLM.
 *
 *   npx tsx eval/bench/memory.ts [--sample N] [--fidelity paper|code-compat] [--recall substring|exact|semantic] [--out file]
 *
 * The simulator's figures measure the machinery (recall, warm starts, counting), not MERMAID's
 * accuracy and not the paper's tool-call numbers, which come from GPT-5-mini.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { CommandProgress } from '../../src/cli/progress';
import type { VerityConfig } from '../../src/config/config';
import { wikiIndexName } from '../../src/corpus/wiki-index';
import { createLogger } from '../../src/logging/logger';
import { projectRoot } from '../../src/project-root';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { MEMORY_RECALL_MODES, type MemoryRecallMode } from '../../src/shared/memory';
import { MERMAID_FIDELITIES, type MermaidFidelity, type MermaidMemoryMode } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { installTemporalRuntime } from '../../src/worker/run-worker';
import { loadDataset } from '../../src/datasets';
import { ensureCorpusIndex } from './memory/indices';
import { reduction, REFERENCE, renderTable, tally, type ModeTally } from './memory/tally';
import { runMain, startBenchStack } from './support/bench-stack';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const CLAIMS_FILE = path.join(DATA, 'dev', 'factcheckbench.jsonl');
const WIKI_FILE = path.join(DATA, 'corpus', 'wiki.jsonl');
const WEB_FILE = path.join(DATA, 'corpus', 'web_factcheckbench.jsonl');
const DATASET = 'factcheck_bench';

interface BenchOptions {
  sample?: number;
  fidelity: MermaidFidelity;
  recall: MemoryRecallMode;
  prefix: string;
  out: string;
}

function parseOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      sample: { type: 'string' },
      fidelity: { type: 'string', default: 'paper' },
      recall: { type: 'string', default: 'substring' },
      prefix: { type: 'string', default: 'bench-mermaid' },
      out: { type: 'string', default: path.join(projectRoot(), 'eval', 'bench', 'memory', 'results.json') },
    },
  });
  const sample = values.sample === undefined ? undefined : Number(values.sample);
  if (sample !== undefined && !(Number.isInteger(sample) && sample > 0)) throw new Error('--sample: expected a whole number above 0');
  if (!(MERMAID_FIDELITIES as readonly string[]).includes(values.fidelity)) throw new Error(`--fidelity: one of ${MERMAID_FIDELITIES.join(', ')}`);
  if (!(MEMORY_RECALL_MODES as readonly string[]).includes(values.recall)) throw new Error(`--recall: one of ${MEMORY_RECALL_MODES.join(', ')}`);
  return { sample, fidelity: values.fidelity as MermaidFidelity, recall: values.recall as MemoryRecallMode, prefix: values.prefix, out: values.out };
}

/** Claims in dataset order, without the 30 not-enough-evidence ones (the paper's 631); the first N with --sample (neighbours share entities). */
async function loadClaims(sample: number | undefined) {
  const { claims } = await loadDataset(CLAIMS_FILE);
  const binary = claims.filter((claim) => claim.labelNorm !== 'NEI');
  return sample === undefined ? binary : binary.slice(0, sample);
}

/** One claim after another, as MERMAID's memory needs (spec §9.11). */
async function runMode(
  client: Client,
  config: VerityConfig,
  claims: Awaited<ReturnType<typeof loadClaims>>,
  mode: MermaidMemoryMode,
  runId: string,
  options: BenchOptions,
  onVerified: () => void,
): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  for (const claim of claims) {
    const input = buildVerifyInput(config, {
      claim: claim.claim,
      claimId: claim.id,
      method: 'mermaid',
      runId,
      dataset: DATASET,
      settings: { mermaid: { memory: mode, fidelity: options.fidelity, recall: { mode: options.recall } } },
    });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    verdicts.push(fullVerdict(await handle.result()));
    onVerified();
  }
  return verdicts;
}

async function main(): Promise<void> {
  const options = parseOptions();
  const logger = createLogger('warn');
  installTemporalRuntime(logger);
  const started = Date.now();
  // The corpus indices stay under the fixed prefix for the next run; the task queue is this run's own.
  const stack = await startBenchStack({
    prefix: options.prefix,
    env: {
      TEMPORAL_TASK_QUEUE: `${options.prefix}-${randomBytes(3).toString('hex')}`,
      OPENAI_API_KEY: 'simulator',
      VERITY_WEB_SEARCH_PROVIDER: 'recorded',
    },
    esRequestTimeoutMs: 120_000,
    logger,
    ingest: async (es, prefix) => {
      for (const [index, file, target] of [
        [wikiIndexName(prefix), WIKI_FILE, undefined],
        [webIndexName(prefix), WEB_FILE, WEB_TARGET],
      ] as const) {
        const result = await ensureCorpusIndex(es, index, file, target);
        process.stderr.write(`${index}: ${result.reused ? 'reused' : `ingested ${result.passages} passages from ${path.basename(file)}`}\n`);
      }
    },
  });
  const { client, config } = stack;
  try {
    const claims = await loadClaims(options.sample);
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').toLowerCase();
    const runIds = { on: `bench-memory-on-${stamp}`, off: `bench-memory-off-${stamp}` };
    process.stderr.write(`verifying ${claims.length} Factcheck-Bench claims in order, memory on and off (${options.fidelity}, ${options.recall} recall)\n`);
    // The two modes share nothing (separate runs, so separate memory scopes) and run side by side.
    // One progress for both modes: two live bars on one terminal would overwrite each other.
    const progress = new CommandProgress({ label: 'bench memory (on + off)', unit: 'verifications', intervalMs: config.progressIntervalMs });
    let verified = 0;
    const onVerified = () => progress.update({ done: ++verified, total: 2 * claims.length });
    const timed = async (mode: 'on' | 'off'): Promise<ModeTally> => {
      const t0 = Date.now();
      const verdicts = await runMode(client, config, claims, mode, runIds[mode], options, onVerified);
      return tally(mode, verdicts, Date.now() - t0);
    };
    const [off, on] = await Promise.all([timed('off'), timed('on')]).finally(() => progress.finish());

    const summary = {
      benchmark: 'mermaid-memory',
      dataset: DATASET,
      claims: claims.length,
      fidelity: options.fidelity,
      recall: options.recall,
      llm: 'simulator (not a real model: these are not MERMAID accuracy or the paper\'s tool-call figures)',
      runs: runIds,
      off,
      on,
      reduction: reduction(off, on),
      hitRate: on.memoryHitClaims / Math.max(on.claims, 1),
      reference: REFERENCE,
      wallClockMs: Date.now() - started,
    };
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(options.out, `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(`${renderTable(off, on)}\n(simulator LLM: figures exercise the memory machinery; they are not MERMAID's accuracy or tool counts)\nresults: ${path.relative(process.cwd(), options.out)}\n`);
  } finally {
    await stack.close();
  }
}

runMain(main);
