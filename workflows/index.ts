export { sweepWorkflow } from './sweep.workflow';
export { verifyClaimWorkflow } from './verify-claim.workflow';
