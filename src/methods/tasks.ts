// Registers every method's structured LLM tasks with the task registry (side-effect imports).
import { registerTask } from '../llm/task-registry';
import { ragVerdictTask } from './rag/verdict-task';

registerTask(ragVerdictTask);
