/**
 * The LLM simulator as a process of its own (for the chaos proofs): prints its base URL on stdout,
 * appends every request (with the client's address) to the log file, stops on SIGTERM.
 *   node --import tsx eval/chaos/simulator-process.ts <request-log.jsonl> [latencyMs] [faults, e.g. 429:0.1,500:0.1] [host]
 */
import { parseFaultSpec } from '../../src/simulator/faults';
import { startSimulator } from '../../src/simulator/server';

async function main(): Promise<void> {
  const [requestLogFile, latency, faults, host] = process.argv.slice(2);
  if (!requestLogFile) throw new Error('usage: simulator-process.ts <request-log.jsonl> [latencyMs] [faults] [host]');
  const simulator = await startSimulator({
    port: 0,
    host: host || undefined,
    requestLogFile,
    recordClient: true,
    latencyMs: Number(latency ?? 0),
    faults: faults ? faults.split(',').map(parseFaultSpec) : [],
  });
  process.stdout.write(`${simulator.url}\n`);
  await new Promise((resolve) => process.once('SIGTERM', resolve));
  await simulator.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`simulator: ${(err as Error).message}\n`);
  process.exit(1);
});
