import { vi } from 'vitest';
import { main } from '../../src/cli/main';

/** The CLI in this process (a spawned one takes long to start on a loaded machine), with `env` over process.env. */
export async function runCliInProcess(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(['node', 'verity', ...args]), stderr };
  } finally {
    spy.mockRestore();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
