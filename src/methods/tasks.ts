// Registers every registered method's structured LLM tasks, and verity check's, with the task registry (side-effect import).
import { checkTasks } from '../check/tasks';
import { registerTask } from '../llm/task-registry';
import { METHOD_NAMES, methodDefinition } from './registry';

for (const task of [...METHOD_NAMES.flatMap((name) => methodDefinition(name).tasks), ...checkTasks]) registerTask(task);
