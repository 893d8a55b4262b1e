/**
 * Screenshots a page that needs JavaScript (the Temporal UI, `verity view`) with headless Chromium:
 *   npm run ui:screenshot -- <url> <out.png> [--wait-for <css selector>] [--size 1400x1800] [--click <text>]… [--wait-after <css selector>]
 * Each --click (in order) clicks the first element showing that text; --wait-after <css> then waits
 * for that element and scrolls it into view.
 * Chromium: Debian's (`apt-get install -y chromium`) or CHROMIUM_PATH.
 */
import fs from 'node:fs';
import { chromium } from 'playwright-core';

const USAGE = 'usage: npm run ui:screenshot -- <url> <out.png> [--wait-for <css selector>] [--size 1400x1800] [--click <text>]… [--wait-after <css selector>]';

async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.length < 2) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(argv.includes('--help') ? 0 : 2);
  }
  const [url, out] = argv as [string, string];
  const option = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const [width, height] = (option('--size') ?? '1400x1800').split('x').map(Number);
  const executablePath = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!executablePath) throw new Error('no Chromium found (Debian: apt-get install -y chromium)');
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: width ?? 1400, height: height ?? 1800 } });
    await page.goto(url, { waitUntil: 'networkidle' });
    const waitFor = option('--wait-for');
    if (waitFor) await page.waitForSelector(waitFor, { timeout: 20_000 });
    const clicks = argv.flatMap((arg, index) => (arg === '--click' && argv[index + 1] !== undefined ? [argv[index + 1]!] : []));
    for (const click of clicks) {
      await page.getByText(click, { exact: false }).first().click();
      // A screenshot tool, not a test: give the page a moment to react to each click.
      await page.waitForTimeout(1_500);
    }
    const waitAfter = option('--wait-after');
    if (waitAfter) await page.locator(waitAfter).first().scrollIntoViewIfNeeded({ timeout: 20_000 });
    await page.screenshot({ path: out, fullPage: false });
    process.stdout.write(`${out}\n`);
  } finally {
    await browser.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`ui-screenshot: ${(err as Error).message.split('\n')[0]}\n`);
  process.exit(1);
});
