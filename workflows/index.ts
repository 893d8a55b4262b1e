export { verifyClaimWorkflow } from './verify-claim.workflow';
