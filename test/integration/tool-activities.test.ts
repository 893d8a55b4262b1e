import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolActivities, type ToolCallResult } from '../../activities/tools.activities';
import { createEsClient } from '../../src/es/client';
import { searchPassages } from '../../src/retrieval/bm25';
import { OBSERVATION_MAX_CHARS } from '../../src/shared/constants';
import { createToolRegistry } from '../../src/tools/create-registry';
import { IndexWikipediaProvider } from '../../src/tools/wikipedia/index-provider';
import { ingestWiki } from '../support/tool-indices';
import { scheduledActivities } from '../support/workflow-history';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

describe('tool activities through a real Temporal worker', () => {
  const config = testConfig();
  const es = createEsClient({ url: config.elasticsearch.url });
  const prefix = uniqueName('tool-activities');
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    const index = await ingestWiki(es, prefix, DEMO_CORPUS);
    const tools = createToolRegistry({ wikipedia: new IndexWikipediaProvider(es, index), searchPassages: (query, k) => searchPassages(es, index, query, k) });
    const connection = await NativeConnection.connect({ address: config.temporal.address });
    worker = await Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue: prefix,
      workflowsPath: path.join(__dirname, '../support/workflows/tool-call.workflow.ts'),
      activities: createToolActivities({ tools }),
    });
    running = worker.run().finally(() => connection.close());
    client = new Client({ connection: await Connection.connect({ address: config.temporal.address }), namespace: config.temporal.namespace });
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await client?.connection.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  async function run(name: string, args: Record<string, unknown>, id = uniqueName('tool')) {
    const result = (await client.workflow.execute('toolCallWorkflow', { taskQueue: prefix, workflowId: id, args: [name, args] })) as ToolCallResult;
    // ES-only tools (rag_search) run as local activities: they are recorded as markers, not scheduled.
    const scheduled = Object.keys(await scheduledActivities(client.workflow.getHandle(id)));
    return { result, scheduled };
  }

  it('runs get_article as activity tools.get_article and returns a bounded observation plus data', async () => {
    const { result, scheduled } = await run('get_article', { title: 'Eiffel Tower' });
    expect(scheduled).toEqual(['tools.get_article']);
    expect(result).toMatchObject({ tool: 'get_article', isError: false, truncated: false });
    expect(result.observation.length).toBeLessThanOrEqual(OBSERVATION_MAX_CHARS);
    expect(result.observation).toContain('Gustave Eiffel');
    expect(result.data).toMatchObject({ title: 'Eiffel Tower', exists: true });
  });

  it('returns a missing page as an error observation with close titles, without retrying', async () => {
    const { result, scheduled } = await run('get_summary', { title: 'Eifel Tower' });
    expect(scheduled).toEqual(['tools.get_summary']);
    expect(result).toMatchObject({ isError: true, errorKind: 'notFound' });
    expect(result.observation).toContain('Eiffel Tower');
  });

  it('returns invalid arguments (MERMAID {query} on a title tool) as an error observation', async () => {
    const { result } = await run('get_article', { query: 'Eiffel Tower' });
    expect(result).toMatchObject({ isError: true, errorKind: 'invalidArguments' });
    expect(result.observation).toContain("'title'");
  });

  it('runs rag_search as activity tools.rag_search', async () => {
    const { result, scheduled } = await run('rag_search', { query: 'Who discovered penicillin?', k: 2 });
    expect(scheduled).toEqual(['tools.rag_search']);
    expect(result.data).toMatchObject({ passages: [{ title: 'Penicillin' }, {}] });
  });
});
