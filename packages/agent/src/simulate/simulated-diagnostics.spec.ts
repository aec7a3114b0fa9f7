import { describe, expect, it } from 'vitest';
import { seededRandom } from '../core/backoff.js';
import { CHECK_NAMES } from '../core/health-checks.js';
import { simulatedDiagnostics } from './simulated-diagnostics.js';

const facts = { now: Date.now(), lastPollOkAt: Date.now() - 1000, lastPollServerDate: Date.now() - 1000, pollIntervalMs: 60_000, linkUp: true, serviceStatus: { main: 'Running' as const } };

describe("a virtual device's diagnostics", () => {
  it('answers every check; most pass, some fail across many devices', async () => {
    let failures = 0;
    let runs = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const d = simulatedDiagnostics({ uuid: 'u', ipAddress: '10.0.0.2', macAddress: 'm', undervolted: false }, seededRandom(seed));
      const out = await d.checks(facts);
      expect(out.checks.map((c) => c.name)).toEqual(Object.values(CHECK_NAMES));
      runs++;
      if (out.checks.some((c) => !c.success)) failures++;
    }
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(runs / 2);
  });

  it('an under-voltage device fails that check; diagnose has the sections', async () => {
    const d = simulatedDiagnostics({ uuid: 'u', ipAddress: '10.0.0.2', macAddress: 'm', undervolted: true }, seededRandom(3));
    const out = await d.checks(facts);
    expect(out.checks.find((c) => c.name === CHECK_NAMES.voltage)?.success).toBe(false);
    const { stdout } = await d.diagnose(facts);
    for (const s of ['container engine', 'containers', 'disk', 'memory', 'network', 'recent agent log']) expect(stdout).toContain(`=== ${s} ===`);
    expect(stdout).toContain('main');
  });
});
