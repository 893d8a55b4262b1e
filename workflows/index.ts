export { sweepWorkflow } from './sweep.workflow';
export { toolMadRoundWorkflow } from './tool-mad-round.workflow';
export { verifyClaimWorkflow } from './verify-claim.workflow';
export { toeNodeWorkflow } from './toe-node.workflow';
export { llmRateWorkflow } from './llm-rate.workflow';
export { checkDocumentWorkflow } from './check-document.workflow';
export { batchCollectorWorkflow } from './batch-collector.workflow';
