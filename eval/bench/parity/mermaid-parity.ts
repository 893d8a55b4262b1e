/**
 * MERMAID's side of `npm run bench:parity -- --method mermaid --reference <checkout of CYP0630/MERMAID-For-Reviwe-Phase>`.
 *
 * The released main.py's CheckAgent runs in a venv (.verity/parity/mermaid/venv) through mermaid_driver.py:
 * its OpenAI clients go to the recording proxy in front of the local model, its MCP tool servers'
 * searchapi.io and MediaWiki calls to a loopback server answered by the recorded-web search and the wiki
 * index verity's own tools use. verity verifies the same claims, in the same order, with `mermaid` in
 * released-prompt mode (`--fidelity released`, the default: main.py's prompts read from --reference, its
 * loop and parsing) or at `fidelity: paper` (`--fidelity verity`: verity's wording). Both sides keep one
 * evidence memory across the run's claims.
 */
import { PARITY_LLM_WAIT_MS, parityModelEnv } from './model-env';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { Agent, setGlobalDispatcher } from 'undici';
import { buildVerifyInput, workflowIdOf } from '../../../src/client/start-verification';
import { loadConfig } from '../../../src/config/config';
import { wikiIndexName } from '../../../src/corpus/wiki-index';
import { loadDataset, stratifiedSample, type DatasetClaim } from '../../../src/datasets';
import { resolveLlmEndpoint } from '../../../src/llm/endpoint';
import { projectRoot } from '../../../src/project-root';
import { createRecordedProvider } from '../../../src/search/recorded-provider';
import { WEB_TARGET, webIndexName } from '../../../src/search/web-index';
import { IndexWikipediaProvider } from '../../../src/tools/wikipedia/index-provider';
import { verifyClaimWorkflow } from '../../../workflows';
import { mermaidSettingsSchema } from '../../../src/methods/mermaid/settings-schema';
import { ingestIndex, startBenchStack, writeReport } from '../support/bench-stack';
import { labelAgreement, wilsonInterval } from './agreement';
import { startMermaidEvidenceServer } from './mermaid-evidence-server';
import { mermaidReferenceLabel, parseMermaidDriverRow, type MermaidDriverRow } from './mermaid-driver-row';
import { firstDivergence, identicalPromptShare, samePrompt, type RecordedCall } from './prompt-diff';
import { startRecordingProxy } from './recording-proxy';

const SHARED_DATA = path.resolve(projectRoot(), '..', 'shared', 'data');
const RECORDED_WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const WIKI = path.join(SHARED_DATA, 'corpus', 'wiki.jsonl');
/** main.py's datasets (FacTool-QA, BingCheck, Factcheck-Bench: its True/False prompt and tool servers). */
const DATASET_FILES: Record<string, string> = {
  factcheck_bench: 'dev/factcheckbench.jsonl',
  factool_qa: 'dev/factool_qa.jsonl',
  bingcheck: 'dev/bingcheck.jsonl',
};
/** What main.py, src/llm_provider.py, src/memory.py and the three MCP servers import (the versions of its uv.lock). */
const PYTHON_DEPENDENCIES = ['openai==1.97.1', 'tenacity==9.1.2', 'python-dotenv==1.0.1', 'requests==2.32.4', 'pydantic==2.11.7', 'colorlog', 'together==1.5.34', 'mcp==1.14.1', 'fastmcp==2.12.3', 'wikipedia-api==0.8.1'];
const DRIVER = path.join(__dirname, 'mermaid_driver.py');
/**
 * verity's tools in released mode: every one the release's servers stand for except scholar_search, which has no
 * offline provider (it would reach arXiv, PubMed and OpenAlex): a search_google_scholar call is answered "not in
 * this verification's toolset" where the release's server gets the evidence server's empty answer.
 */
const RELEASED_MODE_TOOLSET = ['web_search', 'search_wikipedia', 'get_article', 'get_summary', 'summarize_article_section', 'extract_key_facts', 'get_related_topics', 'get_sections'] as const;

export interface MermaidParityOptions {
  reference: string;
  dataset: string;
  claims: number;
  seed: number;
  out?: string;
  command: string;
  /** released: the release's own prompts in verity's workflow; verity: verity's wording at `fidelity: paper`. */
  fidelity: 'released' | 'verity';
}

function ensureVenv(): string {
  const dir = path.join(projectRoot(), '.verity', 'parity', 'mermaid', 'venv');
  const python = path.join(dir, 'bin', 'python');
  if (!fs.existsSync(python)) {
    execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
    execFileSync(python, ['-m', 'pip', 'install', '-q', ...PYTHON_DEPENDENCIES], { stdio: 'inherit' });
  }
  return python;
}

/** Factcheck-Bench's unscored NEI claims are dropped, as the paper's binarised files have none. */
async function claimsOf(dataset: string, n: number, seed: number): Promise<DatasetClaim[]> {
  const file = DATASET_FILES[dataset];
  if (!file) throw new Error(`--dataset ${dataset}: MERMAID's main.py covers ${Object.keys(DATASET_FILES).join(', ')}`);
  const binary = (await loadDataset(path.join(SHARED_DATA, file))).claims.filter((c) => c.labelNorm !== 'NEI');
  return n < binary.length ? stratifiedSample(binary, n, { seed }) : binary;
}

interface ClaimResult {
  claim: DatasetClaim;
  reference: MermaidDriverRow;
  verity: { label: string; methodLabel?: string; toolCalls: number };
  referenceCalls: RecordedCall[];
  verityCalls: RecordedCall[];
  referenceRequests: string[];
}

export async function runMermaidParity(options: MermaidParityOptions): Promise<void> {
  if (!fs.existsSync(path.join(options.reference, 'main.py'))) throw new Error(`--reference ${options.reference}: no main.py (a checkout of CYP0630/MERMAID-For-Reviwe-Phase is needed)`);
  const reference = path.resolve(options.reference);
  const referenceCommit = execFileSync('git', ['-C', reference, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  // Code and prompts only: the snapshot may lack the release's largest data files (dataset/factscore).
  const referenceDirty = execFileSync('git', ['-C', reference, 'diff', 'HEAD', '--', '*.py', '*.txt', '*.toml'], { encoding: 'utf8' });
  process.stdout.write(`reference ${reference} at ${referenceCommit}\npatch to the reference's code: ${referenceDirty ? `\n${referenceDirty}` : 'none'}\n`);
  const python = ensureVenv();
  const claims = await claimsOf(options.dataset, options.claims, options.seed);
  const settings = options.fidelity === 'released' ? { mermaid: mermaidSettingsSchema.parse({ releasedPromptsFrom: reference, fidelity: 'code-compat', toolset: RELEASED_MODE_TOOLSET }) } : undefined;

  const localConfig = loadConfig({ ...process.env, VERITY_LLM: 'local' });
  const local = await resolveLlmEndpoint(localConfig);
  const model = localConfig.llm.models.default;
  // The proxy's upstream fetch waits for the one-slot model behind other callers: undici's 300 s
  // headersTimeout would turn a long queue into a 502 and a retried (re-paid) call on either side.
  setGlobalDispatcher(new Agent({ headersTimeout: PARITY_LLM_WAIT_MS, bodyTimeout: PARITY_LLM_WAIT_MS }));
  const proxy = await startRecordingProxy(local.baseUrl, options.seed);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const stack = await startBenchStack({
    prefix: `b-parm-${randomBytes(4).toString('hex')}`,
    esRequestTimeoutMs: 120_000,
    ingest: async (es, prefix) => {
      await ingestIndex(es, webIndexName(prefix), RECORDED_WEB, WEB_TARGET);
      await ingestIndex(es, wikiIndexName(prefix), WIKI);
    },
    deleteIndices: true,
    env: {
      ...parityModelEnv(proxy.url, model, options.seed),
      // The release asks for 15,000 answer tokens on the model's 4,096-token window and the server stops at the
      // window's end: verity's side sends the same cap, so its own window check is told the cap fits.
      ...(options.fidelity === 'released' ? { VERITY_LLM_CONTEXT_TOKENS: '32768' } : {}),
      VERITY_WEB_SEARCH_PROVIDER: 'recorded',
      VERITY_WIKI_PROVIDER: 'index',
    },
  });
  const evidence = await startMermaidEvidenceServer(
    createRecordedProvider({ es: stack.es, index: webIndexName(stack.prefix) }),
    new IndexWikipediaProvider(stack.es, wikiIndexName(stack.prefix)),
  );
  const started = Date.now();
  const runId = `parity-m-${randomBytes(3).toString('hex')}`;
  const results: ClaimResult[] = [];
  const work = fs.mkdtempSync(path.join(projectRoot(), '.verity', 'parity', 'mermaid', 'run-'));
  const memoryFile = path.join(work, 'evidence_memory.json');
  const venvBin = path.dirname(python);
  try {
    for (const claim of claims) {
      const tag = `ref:${claim.id}`;
      const claimsFile = path.join(work, 'claims.jsonl');
      const outFile = path.join(work, 'reference.jsonl');
      fs.writeFileSync(claimsFile, `${JSON.stringify({ id: tag, claim: claim.claim })}\n`);
      proxy.currentTag = tag;
      evidence.currentTag = tag;
      const t0 = Date.now();
      // Asynchronous: the proxy and the evidence server the driver calls live in this event loop. main.py starts
      // its MCP servers as `python <script>`: the venv's python comes first on PATH.
      const { stderr } = await promisify(execFile)(python, [DRIVER, reference, proxy.url, evidence.url, model, claimsFile, outFile, memoryFile], {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, PATH: `${venvBin}:${process.env.PATH ?? ''}`, OPENAI_API_KEY: 'local', TOGETHER_API_KEY: 'local' },
      });
      if (results.length === 0) process.stdout.write(`${stderr.split('\n').filter((line) => line.startsWith('patch:')).join('\n')}\n`);
      const referenceRow = parseMermaidDriverRow(fs.readFileSync(outFile, 'utf8'));
      const t1 = Date.now();
      proxy.currentTag = `verity:${claim.id}`;
      evidence.currentTag = `verity:${claim.id}`;
      const input = buildVerifyInput(stack.config, { claim: claim.claim, method: 'mermaid', runId, claimId: claim.id, dataset: claim.dataset, model, ...(settings ? { settings } : {}) });
      const verdict = await stack.client.workflow.execute(verifyClaimWorkflow, { workflowId: workflowIdOf(input), taskQueue: stack.config.temporal.taskQueue, args: [input] });
      results.push({
        claim,
        reference: referenceRow,
        verity: { label: verdict.label, ...('methodLabel' in verdict && verdict.methodLabel !== undefined ? { methodLabel: verdict.methodLabel } : {}), toolCalls: verdict.usage?.toolCalls ?? 0 },
        referenceCalls: proxy.calls.get(tag) ?? [],
        verityCalls: proxy.calls.get(`verity:${claim.id}`) ?? [],
        referenceRequests: evidence.requests.get(tag) ?? [],
      });
      report(results, { ...options, model, referenceCommit, started }, false);
      process.stderr.write(`  ${claim.id}: reference ${mermaidReferenceLabel(referenceRow)} (${((t1 - t0) / 1000).toFixed(0)} s), verity ${verdict.label} (${((Date.now() - t1) / 1000).toFixed(0)} s)\n`);
    }
  } finally {
    await evidence.close();
    await stack.close();
    await proxy.close();
    await local.close();
  }
  report(results, { ...options, model, referenceCommit, started }, true);
}

/** A released prompt as its sha256 and length: enough to tell identical prompts apart, no text of the release. */
function withoutReleasedText(call: RecordedCall): { promptSha256: string; promptChars: number; answer: string } {
  return { promptSha256: createHash('sha256').update(call.prompt).digest('hex'), promptChars: call.prompt.length, answer: call.answer };
}

function report(results: ClaimResult[], run: MermaidParityOptions & { model: string; referenceCommit: string; started: number }, print: boolean): void {
  const perClaim = results.map((r) => ({
    id: r.claim.id,
    gold: r.claim.labelNorm,
    reference: mermaidReferenceLabel(r.reference),
    referenceAnswer: r.reference.answer ?? null,
    verity: r.verity.label,
    verityAnswer: r.verity.methodLabel ?? null,
    llmCalls: { reference: r.referenceCalls.length, verity: r.verityCalls.length },
    toolCalls: { reference: r.reference.toolCalls ?? 0, verity: r.verity.toolCalls },
    referenceRequests: r.referenceRequests,
    prompts: identicalPromptShare(r.referenceCalls, r.verityCalls),
    firstStepIdentical: r.referenceCalls.length > 0 && r.verityCalls.length > 0 && samePrompt(r.referenceCalls[0]!.prompt, r.verityCalls[0]!.prompt),
    firstDivergence: firstDivergence(r.referenceCalls, r.verityCalls),
  }));
  const agreement = labelAgreement(perClaim.map((c) => ({ reference: c.reference, verity: c.verity })));
  const prompts = perClaim.reduce((sum, c) => ({ identical: sum.identical + c.prompts.identical, compared: sum.compared + c.prompts.compared }), { identical: 0, compared: 0 });
  const firstStep = wilsonInterval(perClaim.filter((c) => c.firstStepIdentical).length, perClaim.length);
  const toolCalls = perClaim.reduce((sum, c) => ({ reference: sum.reference + c.toolCalls.reference, verity: sum.verity + c.toolCalls.verity }), { reference: 0, verity: 0 });
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const perClaimMean = (total: number) => (perClaim.length ? (total / perClaim.length).toFixed(2) : '-');
  const lines = [
    `mermaid parity on ${run.dataset}, ${perClaim.length} claims; model ${run.model} (local llama.cpp, 1 slot), temperature 0, seed ${run.seed}; reference ${run.referenceCommit.slice(0, 7)}; verity ${run.fidelity === 'released' ? 'with the released prompts' : 'fidelity paper'}`,
    `label agreement        ${agreement.successes}/${agreement.n} = ${pct(agreement.share)}  95% CI [${pct(agreement.low)}, ${pct(agreement.high)}]`,
    `identical prompts      ${prompts.identical}/${prompts.compared} calls at the same step`,
    `identical first prompt ${firstStep.successes}/${firstStep.n} = ${pct(firstStep.share)}  95% CI [${pct(firstStep.low)}, ${pct(firstStep.high)}]`,
    `tool calls per claim   reference ${perClaimMean(toolCalls.reference)}, verity ${perClaimMean(toolCalls.verity)}`,
    '',
    'claim            gold      reference  verity     LLM calls ref/verity  tool calls ref/verity',
    ...perClaim.map(
      (c) =>
        `${c.id.padEnd(16)} ${String(c.gold).padEnd(9)} ${c.reference.padEnd(10)} ${c.verity.padEnd(10)} ${`${c.llmCalls.reference}/${c.llmCalls.verity}`.padEnd(21)} ${c.toolCalls.reference}/${c.toolCalls.verity}`,
    ),
    '',
    ...perClaim
      .filter((c) => c.reference !== c.verity && c.firstDivergence)
      .map((c) => `--- ${c.id}: first divergence at step ${c.firstDivergence!.step} (${c.firstDivergence!.kind})\n${c.firstDivergence!.diff}\n`),
  ];
  if (print) process.stdout.write(`${lines.join('\n')}\n${perClaim.length} claims in ${((Date.now() - run.started) / 1000).toFixed(0)} s\n`);
  const out = run.out ?? path.join(projectRoot(), 'eval', 'bench', 'results', `parity-mermaid-${run.dataset}.json`);
  writeReport(out, {
    command: run.command,
    method: 'mermaid',
    fidelity: run.fidelity,
    dataset: run.dataset,
    model: run.model,
    temperature: 0,
    seed: run.seed,
    referenceCommit: run.referenceCommit,
    agreement,
    prompts,
    firstStep,
    toolCalls,
    // The release has no license: the committed report keeps its prompts as hashes and no diff lines (printed above only).
    perClaim: perClaim.map(({ firstDivergence: divergence, ...rest }) => ({ ...rest, firstDivergence: divergence ? { step: divergence.step, kind: divergence.kind } : null })),
    calls: Object.fromEntries(
      // In released mode verity's prompts are the release's text too: hashed alike.
      results.map((r) => [r.claim.id, { reference: r.referenceCalls.map(withoutReleasedText), verity: run.fidelity === 'released' ? r.verityCalls.map(withoutReleasedText) : r.verityCalls, referenceHistory: r.reference.history ?? null }]),
    ),
  });
}
