// The burst workflow with the 429 controller (llmRateWorkflow), for worker processes that also adapt their rate.
export { llmBurstWorkflow } from './llm-burst.workflow';
export { llmRateWorkflow } from '../../../workflows/llm-rate.workflow';
