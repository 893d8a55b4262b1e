/**
 * npm run bench:local-llm-slots -- [--model qwen2.5-coder-0.5b] [--slots 1,2,4] [--requests 4] [--out file]
 *
 * Chooses the local model server's slot count by measurement: for each slot count it starts a
 * server of its own (on a free loopback port, files under <VERITY_DATA_DIR>/local-llm/bench-slots),
 * sends `--requests` verdict-shaped chat requests (the demo corpus's passages as evidence, a
 * json_schema answer, max_tokens 64) with as many in flight as there are slots, and reports the
 * server's prompt and generated tokens per second over the whole batch and the mean latency.
 * The engine and the weights are installed as `infra` does (VERITY_LLM=local). Writes a table to
 * stdout and JSON to --out (default eval/bench/results/local-llm-slots.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_LLM_ENGINE, LOCAL_MODELS, type LocalModelName } from '../../src/config/local-llm';
import { loadConfig } from '../../src/config/config';
import { pool } from './support/pool';
import { projectRoot } from '../../src/project-root';
import { ensureEngine, ensureWeights, localLlmPaths } from '../../infra/local-llm-install';
import { startServer } from '../../infra/local-llm';
import { stopPidFile } from '../../infra/support';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'qwen2.5-coder-0.5b' },
    slots: { type: 'string', default: '1,2,4' },
    requests: { type: 'string', default: '4' },
    out: { type: 'string', default: path.join(projectRoot(), 'eval', 'bench', 'results', 'local-llm-slots.json') },
  },
});

const model = values.model as LocalModelName;
const spec = LOCAL_MODELS[model];
if (!spec) throw new Error(`unknown model ${values.model}; one of ${Object.keys(LOCAL_MODELS).join(', ')}`);
const slotCounts = values.slots.split(',').map(Number);
const requestCount = Number(values.requests);

interface Passage {
  title: string;
  text: string;
}

const corpus = fs
  .readFileSync(path.join(projectRoot(), 'eval', 'demo', 'corpus.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Passage);
const claims = fs
  .readFileSync(path.join(projectRoot(), 'eval', 'demo', 'claims.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { claim: string }).claim);

const schema = {
  type: 'object',
  properties: { label: { type: 'string', enum: ['SUPPORTED', 'REFUTED', 'NOT ENOUGH INFO'] }, rationale: { type: 'string' } },
  required: ['label', 'rationale'],
  additionalProperties: false,
};

function requestBody(i: number): unknown {
  const evidence = corpus
    .slice(i % corpus.length)
    .concat(corpus)
    .slice(0, 4)
    .map((p, k) => `[${k + 1}] ${p.title}: ${p.text}`)
    .join('\n');
  return {
    model,
    temperature: 0,
    max_tokens: 64,
    messages: [
      { role: 'system', content: 'You verify claims against evidence. Answer with JSON: {"label": SUPPORTED | REFUTED | NOT ENOUGH INFO, "rationale": one sentence}.' },
      { role: 'user', content: `Claim: ${claims[i % claims.length]}\n\nEvidence:\n${evidence}` },
    ],
    response_format: { type: 'json_schema', json_schema: { name: 'verdict', strict: true, schema } },
  };
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

async function send(baseUrl: string, i: number): Promise<Usage & { ms: number }> {
  const startedAt = Date.now();
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(requestBody(i)),
    signal: AbortSignal.timeout(600_000),
  });
  if (!response.ok) throw new Error(`request ${i}: HTTP ${response.status} ${await response.text()}`);
  const { usage } = (await response.json()) as { usage: Usage };
  return { ...usage, ms: Date.now() - startedAt };
}

async function measure(baseUrl: string, slots: number) {
  // Warm-up: the first request pages the model file in.
  await fetch(`${baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, max_tokens: 1, messages: [{ role: 'user', content: 'Hi' }] }),
  });
  const results: Array<Usage & { ms: number }> = [];
  const startedAt = Date.now();
  const requests = Array.from({ length: requestCount }, (_, i) => i);
  await pool(requests, slots, async (i) => void results.push(await send(baseUrl, i)), {
    progress: { label: `bench local-llm-slots ${slots} slot${slots === 1 ? '' : 's'}`, unit: 'requests', intervalMs: loadConfig().progressIntervalMs },
  });
  const seconds = (Date.now() - startedAt) / 1000;
  const promptTokens = results.reduce((sum, r) => sum + r.prompt_tokens, 0);
  const generatedTokens = results.reduce((sum, r) => sum + r.completion_tokens, 0);
  return {
    slots,
    requests: results.length,
    seconds: Number(seconds.toFixed(1)),
    requestsPerMinute: Number(((results.length / seconds) * 60).toFixed(2)),
    promptTokens,
    generatedTokens,
    promptTokensPerS: Number((promptTokens / seconds).toFixed(1)),
    generatedTokensPerS: Number((generatedTokens / seconds).toFixed(1)),
    meanLatencyS: Number((results.reduce((sum, r) => sum + r.ms, 0) / results.length / 1000).toFixed(1)),
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const paths = localLlmPaths(config.dataDir);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const python = await ensureEngine(paths, log);
  const modelFile = await ensureWeights(paths, spec, python, log);
  const benchPaths = localLlmPaths(path.join(config.dataDir, 'local-llm', 'bench-slots'));
  const rows = [];
  for (const slots of slotCounts) {
    const server = await startServer(benchPaths, python, modelFile, { model, slots }, log);
    try {
      const row = await measure(server.baseUrl, slots);
      log(JSON.stringify(row));
      rows.push(row);
    } finally {
      await stopPidFile(benchPaths.pidFile, 'serve.py', 15_000);
    }
  }
  const best = rows.reduce((a, b) => (b.requestsPerMinute > a.requestsPerMinute ? b : a));
  const result = {
    command: `npm run bench:local-llm-slots -- --model ${model} --slots ${values.slots} --requests ${requestCount}`,
    date: new Date().toISOString(),
    machine: { cpus: os.availableParallelism(), loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))) },
    engine: `${LOCAL_LLM_ENGINE.package}==${LOCAL_LLM_ENGINE.version}`,
    model: { name: model, quantisation: spec.quantisation, sha256: spec.sha256 },
    workload: 'verdict-shaped requests: 4 demo passages as evidence, json_schema answer, max_tokens 64, temperature 0; as many in flight as slots',
    rows,
    best: { slots: best.slots, by: 'requests per minute' },
  };
  fs.writeFileSync(values.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `${['slots  req/min  prompt tok/s  gen tok/s  mean latency s', ...rows.map((r) => `${String(r.slots).padEnd(6)} ${String(r.requestsPerMinute).padEnd(8)} ${String(r.promptTokensPerS).padEnd(13)} ${String(r.generatedTokensPerS).padEnd(10)} ${r.meanLatencyS}`)].join('\n')}\nbest: ${best.slots} slots\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
