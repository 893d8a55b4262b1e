import type { Command } from 'commander';
import { type LlmChoice, loadConfig } from '../../config/config';
import { priceTableFor } from '../../llm/create-gateway';
import { diagnoseEndpoint, renderDoctorReport } from '../../llm/doctor';
import { resolveLlmEndpoint } from '../../llm/endpoint';
import { applyLlmOption, llmOption } from '../llm-option';
import { printJson, printText } from '../output';

interface DoctorCommandOptions {
  llm?: LlmChoice;
  json?: boolean;
  model?: string;
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Probe the configured LLM endpoint (models, chat, json_schema/json_object, tools, seed, reasoning tokens, embeddings, price) and say what works, what verity will send, and each problem with its fix.')
    .addOption(llmOption())
    .option('--model <id>', 'the model to probe (default: the configured judge model)')
    .option('--json', 'print the report as JSON')
    .action(async (options: DoctorCommandOptions) => {
      applyLlmOption(options.llm);
      const config = loadConfig();
      const endpoint = await resolveLlmEndpoint(config);
      try {
        const report = await diagnoseEndpoint({
          endpoint: { baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey },
          model: options.model ?? config.llm.models.judge,
          embeddingModel: config.embedding.model,
          prices: priceTableFor(config, endpoint),
          simulated: endpoint.simulated,
          timeoutMs: config.llm.timeoutMs,
          ...(config.llm.reasoningMultipliers ? { reasoningMultipliers: config.llm.reasoningMultipliers } : {}),
        });
        if (options.json) printJson(report);
        else printText(`${renderDoctorReport(report)}\n`);
        if (report.problems > 0) process.exitCode = 1;
      } finally {
        await endpoint.close();
      }
    });
}
