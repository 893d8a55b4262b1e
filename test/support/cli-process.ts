import { spawn } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../src/project-root';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `verity <args>` from source as its own process with `env` (OPENAI_* removed unless given), within `timeoutMs`. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<CliResult> {
  const base = { ...process.env };
  delete base.OPENAI_BASE_URL;
  delete base.OPENAI_API_KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot(), 'test', 'support', 'run-cli.ts'), ...args], {
      cwd: projectRoot(),
      env: { ...base, VERITY_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`verity ${args.join(' ')} did not finish within ${timeoutMs} ms; stderr: ${stderr.slice(-500)}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
