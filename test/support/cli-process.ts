import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/project-root';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  output(): CliResult;
  /** Resolves once stderr matches `pattern`; rejects after `timeoutMs` or when the process ends first. */
  waitForStderr(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** The process's end (never rejects). */
  exited: Promise<CliResult>;
}

/** Starts `verity <args>` from source as its own process with `env` (OPENAI_* removed unless given). */
export function spawnCli(args: string[], env: Record<string, string>): RunningCli {
  return spawnScript(path.join(projectRoot(), 'test', 'support', 'run-cli.ts'), args, env);
}

/** Starts the TypeScript `script` with `args` as its own process with `env` (OPENAI_* removed unless given). */
export function spawnScript(script: string, args: string[], env: Record<string, string>): RunningCli {
  const base = { ...process.env };
  delete base.OPENAI_BASE_URL;
  delete base.OPENAI_API_KEY;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: projectRoot(),
    env: { ...base, VERITY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let code: number | null = null;
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  const output = () => ({ code, stdout, stderr });
  const exited = new Promise<CliResult>((resolve) => {
    child.on('error', (err) => {
      stderr += String(err);
      resolve(output());
    });
    child.on('close', (exitCode) => {
      code = exitCode;
      for (const listener of listeners) listener();
      resolve(output());
    });
  });
  const waitForStderr = (pattern: RegExp, timeoutMs: number) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match) finish(() => resolve(match));
        else if (child.exitCode !== null || child.signalCode !== null) finish(() => reject(new Error(`${path.basename(script)} ${args.join(' ')} ended before printing ${pattern}; stderr: ${stderr.slice(-500)}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; stderr: ${stderr.slice(-500)}`))), timeoutMs);
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  return { child, output, waitForStderr, exited };
}

/** Runs `verity <args>` from source as its own process with `env` (OPENAI_* removed unless given), within `timeoutMs`. */
export async function runCli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliResult> {
  const running = spawnCli(args, env);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      running.child.kill('SIGKILL');
      reject(new Error(`verity ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr: ${running.output().stderr.slice(-500)}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([running.exited, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
