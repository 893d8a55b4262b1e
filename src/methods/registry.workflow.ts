/**
 * The workflow side of the method registry (./registry.ts): each method's runner, the code that
 * verifyClaimWorkflow dispatches to. Sandbox-safe: it imports values only from workflow code
 * (workflows/, src/shared/ and src/methods/<m>/*.workflow.ts, see .dependency-cruiser.cjs), so it
 * can be bundled into the workflow isolate, which ./registry.ts cannot. Same keys as the registry
 * (a type error otherwise).
 */
import type { MethodName } from './registry';
import type { MethodOutcome, MethodRun } from '../../workflows/method-run';
import { runEmulate } from './emulate/sandbox/emulate.workflow';
import { runFire } from './fire/sandbox/fire.workflow';
import { runMermaid } from './mermaid/sandbox/mermaid.workflow';
import { runRag } from './rag/sandbox/rag.workflow';
import { runToe } from './toe/sandbox/toe.workflow';
import { runToolMad } from './tool-mad/sandbox/tool-mad.workflow';
import { runLlmOnly } from './llm-only/sandbox/llm-only.workflow';

export type MethodRunner = (run: MethodRun) => Promise<MethodOutcome>;

export const METHOD_RUNNERS = {
  rag: runRag,
  mermaid: runMermaid,
  emulate: runEmulate,
  fire: runFire,
  'tool-mad': runToolMad,
  toe: runToe,
  'llm-only': runLlmOnly,
} satisfies Record<MethodName, MethodRunner>;
