import { expect } from 'vitest';
import type { requester } from './fleet-helpers.js';

/**
 * Polls `probe` until it gives a truthy value (returned) or `timeoutMs` passes (thrown, naming
 * `what`): the real-agent tests wait on engines, agents and the API this way.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 60_000, intervalMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * A data-API writer for a test's owner: `api('POST', '/v7/…', body)` expects a 2xx and
 * returns the parsed body. Both are read when called (a test sets them in `beforeAll`).
 */
export function apiWriter(req: () => ReturnType<typeof requester>, token: () => string) {
  return async <T = Record<string, unknown>>(method: 'POST' | 'PATCH', url: string, body: object): Promise<T> => {
    const res = await req()(token(), method, url, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return (res.body ? res.json() : {}) as T;
  };
}
