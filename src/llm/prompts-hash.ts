import '../methods/tasks';
import { identityHash } from '../shared/identity';
import { getTask, registeredTaskIds } from './task-registry';

/** The hash of every registered LLM task's id@version: a prompt change makes every verification new. */
export function promptsHash(): string {
  return identityHash(registeredTaskIds().map((id) => `${id}@${getTask(id).version}`));
}
