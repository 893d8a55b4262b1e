import type { Browser, Page } from 'playwright-core';

/** How long an explorer page may take for one step (slow on a loaded 2-core machine). */
export const PAGE_TIMEOUT_MS = 30_000;

/** An explorer page opened in `browser`, ready, recording console errors and uncaught exceptions. */
export async function openExplorerPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  page.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

/** A chart's table as text, after clicking its "numbers" button (the table is hidden until then). */
export async function chartNumbers(page: Page, id: string): Promise<string[][]> {
  const figure = page.locator(`figure[data-chart="${id}"]`);
  const table = figure.locator('table.chart-table');
  if (await table.isHidden()) await figure.locator('button.chart-numbers').click();
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}
