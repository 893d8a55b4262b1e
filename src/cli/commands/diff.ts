import type { Command } from 'commander';
import { diffRuns, renderDiffText } from '../../report';
import { printJson, printText } from '../output';
import { loadReportForCli } from './report';
import { runIdArgument } from '../run-id-argument';

interface DiffOptions {
  json?: boolean;
}

async function diff(runA: string, runB: string, options: DiffOptions): Promise<void> {
  const [a, b] = [await loadReportForCli(runA), await loadReportForCli(runB)];
  const result = diffRuns(a, b);
  if (options.json) printJson(result);
  else printText(renderDiffText(result));
}

export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description(
      'Compare two runs claim by claim (label changed, became correct/incorrect, appeared/disappeared, cost and call deltas) ' +
        'and per dataset × method × model (metric deltas).',
    )
    .argument('<runA>', 'the baseline run id', runIdArgument)
    .argument('<runB>', 'the run compared with it', runIdArgument)
    .option('--json', 'print the whole diff as JSON on stdout')
    .action((runA: string, runB: string, options: DiffOptions) => diff(runA, runB, options));
}
