import { z } from 'zod';

const CONTROL = /\p{Cc}/u;

/** Why a model name is unusable, or undefined (blank names, surrounding whitespace and control characters are typos, not models). */
export function modelNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'a model name must not be blank';
  if (name !== name.trim()) return `model name ${JSON.stringify(name)} must not start or end with whitespace`;
  if (CONTROL.test(name)) return `model name ${JSON.stringify(name)} must not contain control characters`;
  return undefined;
}

/** A model id as configured (VERITY_MODEL*, a sweep's `models`). */
export const modelNameSchema = z.string().superRefine((name, context) => {
  const problem = modelNameProblem(name);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
