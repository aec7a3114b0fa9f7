import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/harness.js';
import { AUDIT_EXEMPT } from './audit-exemptions.js';

// Issue 21 item 5: every state-changing route outside the data API either declares its audit
// (`config.audit`) or is on AUDIT_EXEMPT with a reason. A new route that does neither fails here.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('audit coverage of custom routes', () => {
  it('every non-GET route outside /v7 and /v6 declares its audit or is exempt, with a reason', () => {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const r of t.app.routeInventory) {
      if (r.url.startsWith('/v7/') || r.url.startsWith('/v6/')) continue; // the data API: recorded by the engine
      const methods = r.method.split(',').map((m) => m.trim().toUpperCase()).filter((m) => STATE_CHANGING.has(m));
      for (const m of methods) {
        const key = `${m} ${r.url}`;
        seen.add(key);
        if (r.audit) continue;
        const reason = AUDIT_EXEMPT[key];
        if (!reason || reason.length < 20) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
    // No stale exemptions: each names a route that exists and does not also declare an audit.
    const audited = new Set(t.app.routeInventory.filter((r) => r.audit).flatMap((r) => r.method.split(',').map((m) => `${m.trim().toUpperCase()} ${r.url}`)));
    for (const key of Object.keys(AUDIT_EXEMPT)) {
      expect(seen.has(key), `exemption for a route that does not exist: ${key}`).toBe(true);
      expect(audited.has(key), `exempt and audited: ${key}`).toBe(false);
    }
  });
});
