import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); playwright-core never downloads one. */
export const CHROMIUM = process.env.MEMSVC_CHROMIUM ?? '/usr/bin/chromium';
export const BROWSER_AVAILABLE = existsSync(CHROMIUM);
/** Where the test run writes a screenshot of each page (not committed). */
export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', '..', '.tmp', 'dashboard-screenshots');

/**
 * Headless Chromium with the flags this machine needs: no sandbox (tests run as root), and no
 * background networking (its connections are refused here and slow every start).
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** An axe-core violation at the serious or critical level: its rule and the elements it names. */
export interface SeriousViolation {
  readonly id: string;
  readonly impact: string;
  readonly targets: readonly string[];
}

/**
 * Runs axe-core on the page as it is and returns the serious and critical violations. axe is
 * evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
 * govern, so the test does not have to weaken the policy it also checks.
 */
export async function seriousViolations(page: Page): Promise<SeriousViolation[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    // Runs in the page: its globals (axe, document) are the browser's.
    const page = globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: unknown[] }> }; document: unknown };
    return (await page.axe.run(page.document)).violations;
  })) as { id: string; impact: string; nodes: { target: string[] }[] }[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact, targets: violation.nodes.flatMap((node) => node.target) }));
}

/** Saves a full-page screenshot as `<name>.png` in SCREENSHOT_DIR. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
