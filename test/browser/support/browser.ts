import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

/** Where screenshots go (ignored by git): look at them before changing how the app looks. */
export const SCREENSHOTS = join(__dirname, '..', '..', '..', 'test-results', 'screenshots');

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium (`.ci/run`
 * installs it; elsewhere install any Chromium and set CHROMIUM_PATH). playwright-core downloads
 * no browser of its own.
 */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new Error(`no Chromium at ${path}: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH`);
  return path;
}

export function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-dev-shm-usage',
    ],
  });
}

/** What went wrong in a page: uncaught errors, console errors, CSP violations, dialogs (alert, confirm). */
export interface PageWatch {
  errors: string[];
  dialogs: string[];
}

export function watch(page: Page): PageWatch {
  const found: PageWatch = { errors: [], dialogs: [] };
  page.on('pageerror', (error) => found.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 40[14]/.test(message.text())
    ) {
      // The resource a failed load names (the console text does not say which).
      const url = message.location().url;
      found.errors.push(`console: ${message.text()}${url ? ` (${url.replace(/^https?:\/\/[^/]+/, '')})` : ''}`);
    }
  });
  page.on('dialog', (dialog) => {
    found.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return found;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations in a page or frame, as "rule: target" lines (evaluated over DevTools, so the CSP stays on). */
export async function axeViolations(target: Page | Frame): Promise<string[]> {
  await target.evaluate(AXE);
  const result = (await target.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  )) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Waits until `check` holds (polling), or fails with `what`. */
export async function until<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
