/**
 * ToE's learned retrieval policy before and after GRPO training on episodes recorded by real ToE
 * runs: verifies N claims with `--method toe` (the acting policy logs every node's retrieval
 * episode to `<prefix>-toe-episodes`) through real Temporal + ES with the simulator, reads the
 * episodes back, trains (toe.md §3.6 hyperparameters unless overridden) and prints the action
 * distributions and the training loss/return.
 *
 *   npx tsx eval/bench/toe-policy.ts --dataset fixture --claims 12
 *
 * Options: --dataset fixture|fever|hover|<claims.jsonl> (+ --corpus), --claims N (12), --concurrency n (3),
 * --acting heuristic|learned (heuristic: the paper's warm-up policy), --seed s, --lr, --passes, --epochs,
 * --episodes-out <jsonl> (export what was recorded), --weights-out <file>,
 * --synthetic N (no ToE runs: the documented synthetic world, src/methods/toe/training/synthetic-episodes.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTrainingReport } from '../../src/cli/commands/toe';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { STATE_LAYOUT_VERSION } from '../../src/shared/methods/toe-logic/state';
import { episodesIndex, readEpisodesFromEs, writeEpisodesJsonl } from '../../src/methods/toe/training/episode-source';
import { runTraining } from '../../src/methods/toe/training/run-training';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';
import { startSimulator } from '../../src/simulator/server';
import { loadDataset } from '../datasets';
import { buildConditionIndices, deleteIndices } from '../poisoning/poison-corpus';
import { startSession } from '../poisoning/verity-session';
import { DEFAULT_RECORDED_WEB, resolveClaimsAndCorpus } from './support/claims-and-corpus';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);


function int(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${value}`);
  return n;
}

async function recordEpisodes(values: Record<string, string | boolean | undefined>, file: string): Promise<string> {
  const name = String(values.dataset);
  const { claimsFile, wikiFile: wiki } = resolveClaimsAndCorpus(name, values.corpus ? String(values.corpus) : undefined);
  const { claims } = await loadDataset(claimsFile);
  const chosen = claims.slice(0, int(values.claims as string | undefined, 12));
  const prefix = `toe-policy-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const es = createEsClient({ ...loadConfig().elasticsearch, requestTimeoutMs: 300_000 });
  const simulator = await startSimulator({ port: 0 });
  try {
    process.stderr.write(`toe-policy: indexing ${wiki} + recorded web into ${prefix}-wiki / -web\n`);
    await buildConditionIndices(es, prefix, { wiki, web: DEFAULT_RECORDED_WEB }, { wiki: [], web: [] });
    const session = await startSession({ prefix, env: { OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-simulator', VERITY_WEB_SEARCH_PROVIDER: 'recorded', VERITY_WIKI_PROVIDER: 'index' } });
    const runId = `${prefix}-run`;
    try {
      let next = 0;
      let done = 0;
      const lanes = Array.from({ length: int(values.concurrency as string | undefined, 3) || 1 }, async () => {
        while (next < chosen.length) {
          const claim = chosen[next++]!;
          const result = await session.verify({
            runId,
            claimId: claim.id,
            claim: claim.claim,
            method: 'toe',
            dataset: claim.dataset,
            settings: { toe: { policy: values.acting === 'learned' ? 'learned' : 'heuristic' } },
            timeoutMs: 900_000,
          });
          done += 1;
          process.stderr.write(`toe-policy: ${done}/${chosen.length} ${claim.id}: ${'error' in result ? `error ${result.error}` : result.verdict.label}\n`);
        }
      });
      await Promise.all(lanes);
    } finally {
      await session.close();
    }
    const episodes = await readEpisodesFromEs(es, episodesIndex(prefix), runId);
    writeEpisodesJsonl(file, episodes);
    process.stderr.write(`toe-policy: ${episodes.length} episodes recorded by ${chosen.length} ToE runs → ${file}\n`);
    return `${chosen.length} ToE verifications of ${path.basename(claimsFile)} (${values.acting === 'learned' ? 'learned' : 'heuristic'} acting policy, simulator LLM)`;
  } finally {
    await deleteIndices(es, prefix).catch(() => undefined);
    await simulator.close();
    await es.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'fixture' },
      corpus: { type: 'string' },
      claims: { type: 'string' },
      concurrency: { type: 'string' },
      acting: { type: 'string', default: 'heuristic' },
      seed: { type: 'string' },
      lr: { type: 'string' },
      passes: { type: 'string' },
      epochs: { type: 'string' },
      'episodes-out': { type: 'string' },
      'weights-out': { type: 'string' },
      synthetic: { type: 'string' },
    },
  });
  const episodesFile = values['episodes-out'] ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toe-policy-')), 'episodes.jsonl');
  let origin: string;
  if (values.synthetic !== undefined) {
    const count = int(values.synthetic, 200);
    writeEpisodesJsonl(episodesFile, syntheticEpisodes(count, 1, STATE_LAYOUT_VERSION));
    origin = `${count} SYNTHETIC episodes (scripted world, uniform behaviour policy) — not a measurement of ToE`;
  } else {
    origin = await recordEpisodes(values, episodesFile);
  }
  const report = await runTraining({
    episodeFiles: [episodesFile],
    seed: int(values.seed, 0),
    passes: int(values.passes, 1) || 1,
    hyperparameters: {
      ...(values.lr ? { learningRate: Number(values.lr) } : {}),
      ...(values.epochs ? { epochs: int(values.epochs, 4) } : {}),
    },
    out: values['weights-out'] ?? path.join(os.tmpdir(), 'toe-policy-bench.json'),
  });
  process.stdout.write(`episodes from: ${origin}\n`);
  process.stdout.write(formatTrainingReport(report));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`toe-policy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
