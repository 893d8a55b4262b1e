import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Debian's Chromium for browser tests, installed with apt-get when missing (CI runs on a fresh
 * machine; as root, a few seconds when the package is cached). CHROMIUM_PATH overrides.
 */
export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) return configured;
  const found = CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  execFileSync('bash', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit', timeout: 300_000 });
  const installed = CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (!installed) throw new Error('Chromium is not installed and apt-get could not install it (Debian: apt-get install -y chromium)');
  return installed;
}
