import type { MethodName } from '../src/shared/constants';
import { runEmulate } from './emulate.workflow';
import { runFire } from './fire.workflow';
import { runMermaid } from './mermaid.workflow';
import type { MethodOutcome, MethodRun } from './method-run';
import { runRag } from './rag.workflow';
import { runToe } from './toe.workflow';
import { runToolMad } from './tool-mad.workflow';

/** The workflow code of each method, as verifyClaimWorkflow dispatches to it. */
export const METHOD_RUNNERS: Record<MethodName, (run: MethodRun) => Promise<MethodOutcome>> = {
  rag: runRag,
  mermaid: runMermaid,
  emulate: runEmulate,
  fire: runFire,
  'tool-mad': runToolMad,
  toe: runToe,
};
