import type { Page } from '@playwright/test';

export interface PageProblems {
  /** Console errors, uncaught exceptions and CSP violation reports, in order. */
  errors: string[];
}

/**
 * Collects what would show a broken page under the server's strict CSP: Chromium logs a
 * console error for each blocked inline script, eval or connection, and the document
 * fires `securitypolicyviolation`. Call before the first navigation.
 */
export async function watchPageProblems(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { errors: [] };
  page.on('console', (msg) => {
    // ERR_NETWORK_CHANGED is this host, not the page: Chromium aborts requests in flight when
    // a network interface appears, as the container engine adds one for each container a test's
    // agent starts. A page that fails from it still fails its test's own assertions.
    if (msg.type() === 'error' && !msg.text().includes('net::ERR_NETWORK_CHANGED')) problems.errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.errors.push(`pageerror: ${err.message}`));
  await page.exposeFunction('__reportCspViolation', (text: string) => problems.errors.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation;
      void report(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'}`);
    });
  });
  return problems;
}
