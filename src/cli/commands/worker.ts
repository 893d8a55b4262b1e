import type { Command } from 'commander';
import { runWorkerProcess } from '../../worker/main';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('Run a Temporal worker for verity workflows and activities until interrupted (Ctrl-C).')
    .addHelpText(
      'after',
      '\nConnects to TEMPORAL_ADDRESS and polls the task queue <TEMPORAL_TASK_QUEUE>-<hash of the configuration>\n(and its -llm queue), named on start: only clients with the same Elasticsearch URL and prefix, LLM\nendpoint, models, temperature and seed send work there. LLM calls go to OPENAI_BASE_URL, or to the\nbuilt-in simulator when neither OPENAI_API_KEY nor OPENAI_BASE_URL is set.',
    )
    .action(async () => {
      await runWorkerProcess();
    });
}
