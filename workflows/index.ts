export { sweepWorkflow } from './sweep.workflow';
export { toolMadRoundWorkflow } from '../src/methods/tool-mad/sandbox/tool-mad-round.workflow';
export { verifyClaimWorkflow } from './verify-claim.workflow';
export { toeNodeWorkflow } from '../src/methods/toe/sandbox/toe-node.workflow';
export { llmRateWorkflow } from './llm-rate.workflow';
export { checkDocumentWorkflow } from './check-document.workflow';
export { batchCollectorWorkflow } from './batch-collector.workflow';
export { bulkIngestWorkflow } from './bulk-ingest.workflow';
