import '../methods/tasks';
import { CHECK_TASK_PREFIX } from '../check/tasks';
import { METHOD_BEHAVIOUR_VERSIONS } from '../methods/behaviour-versions';
import { identityHash } from '../shared/identity';
import { getTask, registeredTaskIds } from './task-registry';

/**
 * The hash of every registered LLM task's id@version and every method's behaviour version: a prompt
 * or behaviour change makes every verification new. (Named for its field in stored identities.) The
 * document steps of `verity check` decide no verdict, so they are left out.
 */
export function promptsHash(): string {
  return identityHash([
    ...registeredTaskIds()
      .filter((id) => !id.startsWith(CHECK_TASK_PREFIX))
      .map((id) => `${id}@${getTask(id).version}`),
    ...Object.entries(METHOD_BEHAVIOUR_VERSIONS).map(([method, version]) => `behaviour:${method}@${version}`),
  ]);
}
