import { type Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../../config/config';
import { FAULT_KINDS, type FaultRule, parseFaultSpec } from '../../simulator/faults';
import { DEFAULT_SIM_CONTEXT_TOKENS, SERVER_PROFILES, type ServerProfile } from '../../simulator/profiles';
import { startSimulator } from '../../simulator/server';
import { type BatchExpiryRule, parseBatchExpirySpec } from '../../simulator/batch/batch-faults';
import { notice } from '../output';
import { parsePositiveInt } from '../common';

interface SimOptions {
  port?: number;
  host: string;
  latency?: number;
  fault: FaultRule[];
  faultSeed: number;
  requestLog?: string;
  profile: ServerProfile;
  contextTokens: number;
  /** Commander's negation of --strict-schemas: false with --no-strict-schemas. */
  strictSchemas?: boolean;
  batchTurnaround?: number;
  batchLineFault: FaultRule[];
  batchExpire: BatchExpiryRule[];
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

function collectFault(spec: string, previous: FaultRule[]): FaultRule[] {
  try {
    return [...previous, parseFaultSpec(spec)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function collectBatchExpiry(spec: string, previous: BatchExpiryRule[]): BatchExpiryRule[] {
  try {
    return [...previous, parseBatchExpirySpec(spec)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export function registerSimCommand(program: Command): void {
  program
    .command('sim')
    .description('Run the OpenAI-compatible LLM simulator in the foreground (deterministic answers derived from the prompt; not a real model).')
    .option('-p, --port <port>', 'port to listen on (default: VERITY_SIM_PORT, 0 = any free port)', nonNegativeInt)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--latency <ms>', 'delay before every model answer (default: VERITY_SIM_LATENCY_MS)', nonNegativeInt)
    .option('--fault <spec>', `inject a fault, repeatable: <${FAULT_KINDS.join('|')}>:<probability> or <kind>:every=<n> or 429:above=<requests per second> (a provider's rate limit)`, collectFault, [])
    .option('--fault-seed <n>', 'seed of the fault generator', nonNegativeInt, 7)
    .option('--request-log <file>', 'append every request as a JSON line to this file')
    .addOption(
      new Option(
        '--profile <server>',
        'server to play: openai (strict json_schema rules), llama.cpp (says its window at /props), llama-cpp-python (500 on json_schema), no-response-format (400 on any response_format), prose (ignores response_format), loop (repeats until max_tokens); providers (docs/providers.md): openai-reasoning (GPT-5/o-series: refuses max_tokens and temperature), gpt-oss-vllm, ollama, anthropic-compat, gemini-compat, no-seed (refuses seed)',
      )
        .choices(SERVER_PROFILES)
        .default('openai'),
    )
    .option('--context-tokens <n>', 'context window: a longer prompt (plus max_tokens) gets the server\'s context-overflow 400', parsePositiveInt, DEFAULT_SIM_CONTEXT_TOKENS)
    .option('--no-strict-schemas', "accept json_schema schemas that break OpenAI's strict rules (default: rejected with its 400 under the openai profile)")
    .option('--batch-turnaround <ms>', 'time a batch (POST /v1/batches) takes from creation to completion (default 200)', nonNegativeInt)
    .option('--batch-line-fault <spec>', 'fault of single requests inside batches (a failed line in the error file), repeatable; same specs as --fault', collectFault, [])
    .option('--batch-expire <spec>', 'expire batches (half their requests unanswered), repeatable: every=<n>, match=<text> or first-match=<text>', collectBatchExpiry, [])
    .addHelpText(
      'after',
      '\nExamples:\n  verity sim --port 4010\n  verity sim --fault 429:0.1 --fault timeout:every=50 --request-log sim.jsonl\n  verity sim --profile llama-cpp-python --context-tokens 2048\n\nAnswers longer than max_tokens are cut off (finish_reason length). Point verity at it with OPENAI_BASE_URL=<printed url> OPENAI_API_KEY=sim.',
    )
    .action(async (options: SimOptions) => {
      const config = loadConfig();
      const simulator = await startSimulator({
        port: options.port ?? config.simulator.port,
        host: options.host,
        latencyMs: options.latency ?? config.simulator.latencyMs,
        faults: options.fault,
        faultSeed: options.faultSeed,
        requestLogFile: options.requestLog,
        profile: options.profile,
        contextTokens: options.contextTokens,
        // Commander sets true unless --no-strict-schemas: only the explicit opt-out overrides the profile's default.
        ...(options.strictSchemas === false ? { strictSchemas: false } : {}),
        batch: { turnaroundMs: options.batchTurnaround, lineFaults: options.batchLineFault, expiry: options.batchExpire },
      });
      process.stdout.write(`${simulator.url}\n`);
      notice(`simulator listening on ${simulator.url} (answers are not real model outputs); Ctrl-C to stop`);
      await untilInterrupted();
      await simulator.close();
    });
}

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
