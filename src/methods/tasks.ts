// Registers every method's structured LLM tasks with the task registry (side-effect imports).
import { checkTasks } from '../check/tasks';
import { registerTask } from '../llm/task-registry';
import { emulateTasks } from './emulate/tasks';
import { fireTasks } from './fire/tasks';
import { mermaidTasks } from './mermaid/tasks';
import { ragVerdictTask } from './rag/verdict-task';
import { toeTasks } from './toe/tasks';
import { toolMadTasks } from './tool-mad/tasks';

registerTask(ragVerdictTask);
for (const task of [...mermaidTasks, ...emulateTasks, ...fireTasks, ...toolMadTasks, ...toeTasks, ...checkTasks]) registerTask(task);
