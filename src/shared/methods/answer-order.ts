/**
 * Where the baselines' (rag, llm-only) answer schema puts the rationale. With constrained decoding the
 * model writes the fields in schema order: `rationale-first` reasons before it commits to a label,
 * `label-first` (the prompt of runs before issue 37) fixes the label before any reasoning.
 */
export const BASELINE_ANSWER_ORDERS = ['rationale-first', 'label-first'] as const;
export type BaselineAnswerOrder = (typeof BASELINE_ANSWER_ORDERS)[number];
export const DEFAULT_BASELINE_ANSWER_ORDER: BaselineAnswerOrder = 'rationale-first';
