import YAML from 'yaml';
import { describeRunConfigIssue, findUnknownParameterKey } from './config-keys';
import { type RunConfig, runConfigSchema } from './run-manifest';
import { InputFileError, MAX_SETTINGS_FILE_BYTES, readInputText } from '../config/input-file';

/** A sweep config file that cannot be read, is not YAML or breaks the schema; the message names the file. */
export class RunConfigFileError extends Error {
  override name = 'RunConfigFileError';
}

/** Reads and validates a sweep config file (YAML); every problem is one line naming the YAML path. */
export function readRunConfig(file: string): RunConfig {
  let text: string;
  try {
    text = readInputText(file, MAX_SETTINGS_FILE_BYTES);
  } catch (err) {
    throw new RunConfigFileError(`cannot read sweep config: ${err instanceof InputFileError ? err.message : file}`);
  }
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (err) {
    throw new RunConfigFileError(`${file}: not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = runConfigSchema.safeParse(raw);
  if (!parsed.success) throw new RunConfigFileError(`${file}: ${describeRunConfigIssue(parsed.error.issues[0]!)}`);
  const parameterProblem = findUnknownParameterKey(parsed.data.parameters);
  if (parameterProblem) throw new RunConfigFileError(`${file}: ${parameterProblem}`);
  return parsed.data;
}
