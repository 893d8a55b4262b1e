/**
 * FIRE's released prompts read from a user's checkout of mbzuai-nlp/fire (settings `releasedPromptsFrom`):
 * the two f-string templates of eval/fire/verify_atomic_claim.py, evaluated as Python does (their
 * fields are module-level string constants), and the system prompt of common/modeling.py.
 */
import { readReleasedFiles, ReleasedCheckoutError } from '../released-checkout';
import { FIRE_RELEASED_COMMIT, type FireReleasedPrompts } from './sandbox/released-prompts';

/** Module-level `NAME = '...'` / `NAME = "..."` one-line string literals without escapes. */
export function pythonStringConstants(source: string): Record<string, string> {
  const constants: Record<string, string> = {};
  for (const match of source.matchAll(/^(\w+)\s*=\s*(['"])([^'"\\\n]*)\2[ \t]*$/gm)) constants[match[1]!] = match[3]!;
  return constants;
}

/** The value of `NAME = f"""..."""` at module level: `\` + newline joins lines, `{{`/`}}` are braces, `{CONST}` is the constant. */
export function evaluatePythonFString(source: string, name: string, constants: Readonly<Record<string, string>>): string {
  const match = new RegExp(`^${name}\\s*=\\s*f"""([\\s\\S]*?)"""`, 'm').exec(source);
  if (!match) throw new ReleasedCheckoutError(`released prompts: ${name} not found as an f-string`);
  const body = match[1]!.replace(/^\\\n/, '');
  if (body.includes('\\')) throw new ReleasedCheckoutError(`released prompts: ${name} has escapes this reader does not evaluate`);
  return body.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, field: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = constants[field!];
    if (value === undefined) throw new ReleasedCheckoutError(`released prompts: ${name} uses {${field}}, not a string constant of the module`);
    return value;
  });
}

export function fireReleasedPromptsFrom(checkout: string): FireReleasedPrompts {
  const files = readReleasedFiles(checkout, { repository: 'mbzuai-nlp/fire', commit: FIRE_RELEASED_COMMIT }, { verifier: 'eval/fire/verify_atomic_claim.py', modeling: 'common/modeling.py' });
  const constants = pythonStringConstants(files.verifier);
  const system = pythonStringConstants(files.modeling).SYS_PROMPT;
  if (system === undefined) throw new ReleasedCheckoutError('released prompts: SYS_PROMPT not found in common/modeling.py');
  return {
    commit: FIRE_RELEASED_COMMIT,
    system,
    step: evaluatePythonFString(files.verifier, '_FINAL_ANSWER_OR_NEXT_SEARCH_FORMAT', constants),
    final: evaluatePythonFString(files.verifier, '_MUST_HAVE_FINAL_ANSWER_FORMAT', constants),
  };
}
