import { patched, workflowInfo } from '@temporalio/workflow';
import { PATCH_LEVEL_MEMO, PATCH_ORDER } from '../src/shared/patches';

/**
 * Whether this execution takes the patch `id`: yes when it was started at a patch level that
 * includes it, else what `patched()` says (recorded histories replay their own branch).
 */
export function hasPatch(id: string): boolean {
  const level = workflowInfo().memo?.[PATCH_LEVEL_MEMO];
  const index = PATCH_ORDER.indexOf(id);
  if (typeof level === 'number' && index >= 0 && index < level) return true;
  return patched(id);
}
