import { describe, expect, it } from 'vitest';
import '../../src/methods/tasks';
import { completionRequestOf } from '../../activities/llm.activities';
import { jsonSchemaOf } from '../../src/llm/structured-output';
import { bodyFor } from '../../src/llm/response-format';
import { MERMAID_LABEL_SETS } from '../../src/methods/mermaid/sandbox/mermaid-settings';
import { mermaidResponders, SIMULATED_UNDECIDED_ANSWER } from '../../src/methods/mermaid/simulator-responder';
import { renderExecutorPrompt, type ExecutorPromptInput } from '../../src/methods/mermaid/executor-prompt';
import { classifyAnswer } from '../../src/methods/mermaid/sandbox/mermaid-protocol';
import type { PromptReading } from '../../src/simulator/prompt-reader';

// Issue 37 §2.2: MERMAID's final answer is constrained to the label set's enum in the strict schema it sends.
const variables = {
  claim: 'Aspirin lowers the risk of colorectal cancer.',
  decomposition: { triplets: [{ subject: 'Aspirin', relation: 'lowers', object: 'the risk of colorectal cancer', attributes: null }], topic: 'Medicine' },
  memory: [],
  history: [],
  tools: [{ name: 'web_search', description: 'Search the web', parameters: { type: 'object' }, primaryArgument: 'query' }],
  labels: MERMAID_LABEL_SETS.scifact,
  fidelity: 'paper',
};

type Schema = { properties: Record<string, Schema>; anyOf?: Schema[]; enum?: string[] };

function sentSchemaOf(task: string): Schema {
  const request = completionRequestOf({ task, variables } as never);
  return jsonSchemaOf(request.sentSchema ?? request.schema) as Schema;
}

describe('MERMAID answer enum in the sent schema', () => {
  it("sends the executor step's answer as the label set's enum", () => {
    const next = sentSchemaOf('mermaid.executor-step').properties.next!;
    const answer = next.anyOf!.find((branch) => 'answer' in branch.properties)!.properties.answer!;
    expect(answer.enum).toEqual(['SUPPORT', 'CONTRADICT']);
  });

  it("sends the forced answer as the label set's enum", () => {
    expect(sentSchemaOf('mermaid.force-answer').properties.answer!.enum).toEqual(['SUPPORT', 'CONTRADICT']);
  });

  it('puts the enum in the json_schema response_format of the request body, strict', () => {
    const request = completionRequestOf({ task: 'mermaid.force-answer', variables } as never);
    const canonical = { model: 'm', messages: request.messages, schemaName: request.schemaName, jsonSchema: jsonSchemaOf(request.sentSchema!), temperature: 0, seed: 1 };
    const body = bodyFor(canonical as never, 'json_schema', request.messages);
    expect(JSON.stringify(body.response_format)).toContain('"enum":["SUPPORT","CONTRADICT"]');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
  });

  it('still validates any answer string, so aliases of servers without strict schemas are read and counted', () => {
    const request = completionRequestOf({ task: 'mermaid.force-answer', variables } as never);
    const parsed = request.schema.parse({ thought: 't', answer: 'Supports' }) as { answer: string };
    expect(classifyAnswer(parsed.answer, MERMAID_LABEL_SETS.scifact, { aliases: true })).toBe('positive');
    const offVocabulary = request.schema.parse({ thought: 't', answer: 'NOT ENOUGH INFO' }) as { answer: string };
    expect(classifyAnswer(offVocabulary.answer, MERMAID_LABEL_SETS.scifact, { aliases: true })).toBe('invalid');
  });
});

describe('MERMAID simulator under and without constrained decoding', () => {
  const input = { ...variables, decomposition: variables.decomposition, tools: [] } as unknown as ExecutorPromptInput;
  const forced = (constrained: boolean) =>
    mermaidResponders.mermaid_forced_answer!({ claim: variables.claim } as PromptReading, {}, [{ role: 'system', content: renderExecutorPrompt(input, true).system }], constrained) as { answer: string };

  it('answers an undecided claim with a label when the schema holds it, in its own words when not', () => {
    expect(forced(true).answer).toBe('CONTRADICT');
    expect(forced(false).answer).toBe(SIMULATED_UNDECIDED_ANSWER);
  });
});
