import { expect, type Locator, type Page, type Request } from '@playwright/test';

/**
 * Long-lived requests a page keeps open on purpose: the device log stream (`?stream=1`) and
 * WebSockets (the terminal, the live-status channel). Playwright's `networkidle` never arrives
 * while one is open, so the quiet wait below leaves them out.
 */
function longLived(request: Request): boolean {
  const type = request.resourceType();
  if (type === 'websocket' || type === 'eventsource') return true;
  return /[?&]stream=1(&|$)/.test(request.url());
}

/**
 * Runs `action` (usually a `page.goto` and a readiness check), then waits until the page has had
 * no ordinary request in flight for `quietMs`: lazy cards land after the first paint. The
 * listener is attached before the action so no request is missed.
 */
export async function settleAfter(page: Page, action: () => Promise<unknown>, quietMs = 500, timeoutMs = 20_000): Promise<void> {
  const inFlight = new Set<Request>();
  const start = (r: Request) => {
    if (!longLived(r)) inFlight.add(r);
  };
  const end = (r: Request) => inFlight.delete(r);
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  try {
    await action();
    const deadline = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      await page.waitForTimeout(100);
      if (inFlight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
    throw new Error(`the page kept ${inFlight.size} request(s) in flight for ${timeoutMs} ms: ${[...inFlight].map((r) => r.url()).join(', ')}`);
  } finally {
    page.off('request', start);
    page.off('requestfinished', end);
    page.off('requestfailed', end);
  }
}

/**
 * Reloads `page` until `check` passes on `ready`: each round first waits for `ready` to render
 * (a reload takes seconds on a loaded 2-core machine), then gives `check` a short look, so a
 * slow render is never mistaken for the state not being there yet.
 */
export async function reloadUntil(page: Page, ready: Locator, check: (ready: Locator) => Promise<void>, timeoutMs = 45_000): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(ready).toBeVisible({ timeout: 15_000 });
    await check(ready);
  }).toPass({ timeout: timeoutMs });
}
