/**
 * Saves the history of a finished workflow as a replay fixture:
 *   npx tsx test/replay/capture-history.ts <workflowId> test/replay/histories/<name>.json [runId]
 * (a run id picks one run of a workflow that continued as new; the latest otherwise).
 */
import fs from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { loadConfig } from '../../src/config/config';

async function capture(workflowId: string, outFile: string, runId?: string): Promise<void> {
  const config = loadConfig();
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    fs.writeFileSync(outFile, `${JSON.stringify({ workflowId, history: JSON.parse(historyToJSON(history)) as unknown }, null, 1)}\n`);
  } finally {
    await connection.close();
  }
}

const [workflowId, outFile, runId] = process.argv.slice(2);
if (!workflowId || !outFile) {
  process.stderr.write('usage: capture-history.ts <workflowId> <out.json> [runId]\n');
  process.exit(2);
}
capture(workflowId, outFile, runId).catch((err: unknown) => {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exit(1);
});
