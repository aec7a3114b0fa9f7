import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';

const require = createRequire(import.meta.url);

describe('fetch-readablestream stand-in', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a function when required from CommonJS, and hands the request to fetch', async () => {
    const fetchStream = require('./fetch-readablestream.cjs') as (url: string, init?: RequestInit) => Promise<Response>;
    expect(typeof fetchStream).toBe('function');
    const answer = new Response('x');
    const fetch = vi.fn(async () => answer);
    vi.stubGlobal('fetch', fetch);
    const init = { method: 'GET', headers: { Authorization: 'Bearer t' } };
    await expect(fetchStream('http://example.test/device/v2/u/logs?stream=1', init)).resolves.toBe(answer);
    expect(fetch).toHaveBeenCalledWith('http://example.test/device/v2/u/logs?stream=1', init);
  });
});
