import { type Command, Option } from 'commander';
import { INFRA_PARTS, type InfraPart, type InfraState, type InfraStatus, ensureInfra, infraStatus, stopInfra } from '../../../infra';
import { loadConfig } from '../../config/config';
import { notice, printJson } from '../output';

interface JsonOption {
  json?: boolean;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function describeUp(state: InfraState): string {
  const { temporal, elasticsearch } = state;
  const how = (s: { state: string; pid?: number; durationMs: number }) =>
    s.state === 'started' ? `started now (pid ${s.pid}) in ${seconds(s.durationMs)}` : `already running (checked in ${seconds(s.durationMs)})`;
  return [
    `temporal       ${temporal.address}  ${how(temporal)}  UI ${temporal.uiUrl}`,
    `elasticsearch  ${elasticsearch.url}  ${how(elasticsearch)}`,
    ...(state.localLlm ? [`local-llm      ${state.localLlm.baseUrl}  ${state.localLlm.model}, ${state.localLlm.slots} slots  ${how(state.localLlm)}`] : []),
    `ready in ${seconds(state.durationMs)}`,
  ].join('\n');
}

function describeStatus(status: InfraStatus): string {
  const { temporal: t, elasticsearch: e, localLlm: l } = status;
  const reach = (ok: boolean) => (ok ? 'reachable' : 'NOT reachable');
  const pid = (value?: number) => (value ? `started by verity (pid ${value})` : 'not started by verity');
  const attributes = t.searchAttributes
    ? t.searchAttributes.missing.length === 0
      ? 'search attributes registered'
      : `missing search attributes: ${t.searchAttributes.missing.join(', ')}`
    : '';
  return [
    `temporal       ${t.address}  ${reach(t.reachable)}${t.serverVersion ? `  server ${t.serverVersion}` : ''}  ${pid(t.pid)}  ${attributes}`,
    `               cli: ${t.cliPath ? `${t.cliPath} (${t.cliVersion ?? 'version unknown'})` : 'not installed'}`,
    `elasticsearch  ${e.url}  ${reach(e.reachable)}${e.version ? `  version ${e.version}` : ''}${e.health ? `  health ${e.health}` : ''}  ${pid(e.pid)}`,
    `               distribution: ${e.distribution ? `${e.distribution.version} at ${e.distribution.home}` : 'not installed'}`,
    `local-llm      ${l.server ? `${l.server.baseUrl}  ${l.server.model}, ${l.server.slots} slots  ${pid(l.server.pid)}` : 'not running'}` +
      `${l.configuredModel ? `  (VERITY_LLM=local, model ${l.configuredModel})` : ''}`,
    `               engine ${l.engineInstalled ? 'installed' : 'not installed'}; models: ${l.modelsInstalled.join(', ') || 'none'}`,
  ].join('\n');
}

/** Provisioning errors span several lines (what was tried, log tails); main() would print only the first. */
function reportFailure(err: unknown): undefined {
  notice((err as Error).message);
  process.exitCode = 1;
  return undefined;
}

export function registerInfraCommand(program: Command): void {
  const infra = program
    .command('infra')
    .description('Provision the local Temporal dev server and Elasticsearch node (no Docker needed).');

  infra
    .command('up')
    .description(
      'Use Temporal (TEMPORAL_ADDRESS) and Elasticsearch (ES_URL) if they answer; otherwise install and start them ' +
        'under VERITY_DATA_DIR (Temporal CLI dev server; Elasticsearch from its distribution archive, Java >= 17). ' +
        'Registers verity\'s search attributes. Servers keep running after the command exits.',
    )
    .option('--json', 'print the result as JSON')
    .action(async (options: JsonOption) => {
      const state = await ensureInfra(loadConfig(), { log: options.json ? undefined : notice }).catch(reportFailure);
      if (!state) return;
      if (options.json) printJson(state);
      else process.stdout.write(`${describeUp(state)}\n`);
    });

  infra
    .command('down')
    .description('Stop the servers that verity started (found by their pid files: Temporal, Elasticsearch, the local LLM); others are left alone.')
    .addOption(new Option('--only <part>', 'stop only this part').choices(INFRA_PARTS))
    .option('--json', 'print the result as JSON')
    .action(async (options: JsonOption & { only?: InfraPart }) => {
      const result = await stopInfra(loadConfig(), options.only ? [options.only] : INFRA_PARTS);
      if (options.json) printJson(result);
      else process.stdout.write(Object.entries(result).map(([part, outcome]) => `${part}: ${outcome}\n`).join(''));
    });

  infra
    .command('status')
    .description('Report whether Temporal and Elasticsearch answer, their versions, and what verity started. Exit code 1 unless both answer.')
    .option('--json', 'print the result as JSON')
    .action(async (options: JsonOption) => {
      const status = await infraStatus(loadConfig());
      if (options.json) printJson(status);
      else process.stdout.write(`${describeStatus(status)}\n`);
      if (!status.ready) process.exitCode = 1;
    });
}
