/**
 * A real headless Chromium (Debian's `chromium` package, which `.ci/run`
 * installs when it can) driven by playwright-core, for the browser tests and
 * the `web` bench. Playwright's own browser downloads are never used: the
 * machine's Chromium is, at $HERDR_CHROMIUM or /usr/bin/chromium.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.HERDR_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is not installed (apt-get install chromium, or set HERDR_CHROMIUM); the browser tests are skipped`;
  return undefined;
}

/** Headless, with nothing that reaches for the network on its own (this machine has none to reach). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
