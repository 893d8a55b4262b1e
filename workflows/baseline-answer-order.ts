import { DEFAULT_BASELINE_ANSWER_ORDER, type BaselineAnswerOrder } from '../src/shared/methods/answer-order';
import { PATCHES } from '../src/shared/patches';
import { hasPatch } from './has-patch';

/** The answer order of a rag or llm-only verification: its setting, else rationale first; histories recorded before the patch answered label first. */
export function baselineAnswerOrder(setting: BaselineAnswerOrder | undefined): BaselineAnswerOrder {
  if (!hasPatch(PATCHES.baselineRationaleFirst)) return 'label-first';
  return setting ?? DEFAULT_BASELINE_ANSWER_ORDER;
}
