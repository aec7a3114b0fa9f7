import { chromium, type Browser } from '@playwright/test';

/**
 * Debian's Chromium, headless, for the bench and the soak. Playwright's own SIGINT, SIGTERM and
 * SIGHUP handlers are off: they close the browser and exit the process at once, before the
 * bench's cleanup has stopped the server, agents and containers (stop-signals.ts does that).
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
