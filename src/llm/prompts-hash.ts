import '../methods/tasks';
import { CHECK_TASK_PREFIX } from '../check/tasks';
import { METHOD_BEHAVIOUR_VERSIONS } from '../methods/behaviour-versions';
import { METHOD_NAMES, methodDefinition, type MethodName } from '../methods/registry';
import { identityHash } from '../shared/identity';
import { getTask, registeredTaskIds } from './task-registry';

/**
 * The hash of every registered LLM task's id@version and every method's behaviour version. Kept for
 * identities made before per-method hashes (`methodPromptsHashes`), which new identities use instead.
 * The document steps of `verity check` decide no verdict, so they are left out.
 */
export function promptsHash(): string {
  return identityHash([
    ...registeredTaskIds()
      .filter((id) => !id.startsWith(CHECK_TASK_PREFIX))
      .map((id) => `${id}@${getTask(id).version}`),
    ...Object.entries(METHOD_BEHAVIOUR_VERSIONS).map(([method, version]) => `behaviour:${method}@${version}`),
  ]);
}

/**
 * One method's prompts hash: the id@version of the tasks its definition declares and its behaviour
 * version. A method's verifications change when its own prompts change, never when another method
 * is added or changed.
 */
export function methodPromptsHash(method: MethodName): string {
  const definition = methodDefinition(method);
  return identityHash({
    method,
    tasks: definition.tasks.map((task) => `${task.id}@${task.version}`).sort(),
    behaviour: definition.behaviourVersion,
  });
}

export function methodPromptsHashes(): Record<MethodName, string> {
  return Object.fromEntries(METHOD_NAMES.map((method) => [method, methodPromptsHash(method)])) as Record<MethodName, string>;
}
