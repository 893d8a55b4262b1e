/**
 * Poisoning robustness of every method: label flips on REFUTED claims when adversarial passages
 * are injected into the corpus and the recorded web (eval/poisoning/harness.ts, docs/poisoning.md).
 *
 *   npx tsx eval/bench/poisoning.ts --dataset fixture --claims 20 --methods rag,mermaid,emulate,fire,tool-mad,toe
 *
 * Options: --dataset fixture|fever|hover|scifact|factcheckbench|<claims.jsonl>, --corpus <wiki jsonl>,
 * --web <recorded web jsonl>|none, --claims N, --methods a,b, --per-claim k (5), --targets wiki,web,
 * --factcheck both|filtered|allowed, --concurrency n (4), --timeout-s s (600), --llm simulator|configured,
 * --settings '<json of per-method settings>', --out <results json>, --keep (keep the indices).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../../src/project-root';
import { METHOD_NAMES, type MethodName } from '../../src/methods/registry';
import type { MethodSettings } from '../../src/shared/method-settings';
import { parseMethodSettings } from '../../src/methods/settings-schemas';
import { formatPoisoningReport, POISON_TARGETS, runPoisoningHarness, type PoisonTarget } from '../poisoning/harness';
import type { FactCheckMode } from '../poisoning/flip-metrics';
import { DEFAULT_RECORDED_WEB, resolveClaimsAndCorpus } from './support/claims-and-corpus';
import { exitWithUsageIfAsked } from './support/usage';

exitWithUsageIfAsked(__filename);


function fail(message: string): never {
  process.stderr.write(`poisoning: ${message}\n`);
  process.exit(2);
}

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive integer`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'fixture' },
      corpus: { type: 'string' },
      web: { type: 'string' },
      claims: { type: 'string' },
      methods: { type: 'string' },
      'per-claim': { type: 'string' },
      targets: { type: 'string' },
      factcheck: { type: 'string', default: 'both' },
      concurrency: { type: 'string' },
      'timeout-s': { type: 'string' },
      llm: { type: 'string', default: 'simulator' },
      settings: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  let datasetFile: string;
  let wiki: string;
  try {
    ({ claimsFile: datasetFile, wikiFile: wiki } = resolveClaimsAndCorpus(values.dataset, values.corpus));
  } catch (err) {
    fail((err as Error).message);
  }
  if (!fs.existsSync(datasetFile)) fail(`dataset not found: ${datasetFile}`);
  const web = values.web === 'none' ? undefined : values.web ? path.resolve(values.web) : DEFAULT_RECORDED_WEB;
  const methods = (values.methods ? values.methods.split(',').map((m) => m.trim()) : [...METHOD_NAMES]) as MethodName[];
  for (const m of methods) if (!METHOD_NAMES.includes(m)) fail(`unknown method ${m} (known: ${METHOD_NAMES.join(', ')})`);
  const targets = (values.targets ? values.targets.split(',').map((t) => t.trim()) : [...POISON_TARGETS]) as PoisonTarget[];
  for (const t of targets) if (!POISON_TARGETS.includes(t)) fail(`unknown target ${t} (known: ${POISON_TARGETS.join(', ')})`);
  const factCheck: FactCheckMode[] = values.factcheck === 'both' ? ['filtered', 'allowed'] : values.factcheck === 'filtered' || values.factcheck === 'allowed' ? [values.factcheck] : fail('--factcheck must be both, filtered or allowed');
  if (values.llm !== 'simulator' && values.llm !== 'configured') fail('--llm must be simulator or configured');
  let settings: MethodSettings | undefined;
  if (values.settings) {
    const raw = JSON.parse(values.settings) as Record<string, unknown>;
    settings = Object.assign({}, ...Object.entries(raw).map(([m, s]) => parseMethodSettings(m as MethodName, s, `--settings.${m}`))) as MethodSettings;
  }

  const report = await runPoisoningHarness({
    datasetFile,
    corpus: { wiki, ...(web ? { web } : {}) },
    methods,
    claims: positiveInt(values.claims, 'claims', 20),
    perClaim: positiveInt(values['per-claim'], 'per-claim', 5),
    targets,
    factCheck,
    concurrency: positiveInt(values.concurrency, 'concurrency', 4),
    timeoutMs: positiveInt(values['timeout-s'], 'timeout-s', 600) * 1000,
    llm: values.llm,
    settings,
    keepIndices: values.keep,
    log: (line) => process.stderr.write(`poisoning: ${line}\n`),
  });
  process.stdout.write(formatPoisoningReport(report));
  const out = values.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', `poisoning-${path.resolve(values.dataset) === datasetFile ? path.basename(datasetFile, '.jsonl') : values.dataset}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`results: ${path.relative(process.cwd(), out)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`poisoning: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
