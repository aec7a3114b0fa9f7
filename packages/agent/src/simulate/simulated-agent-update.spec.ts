import { describe, expect, it } from 'vitest';
import { Scheduler } from '../core/scheduler.js';
import { simulatedAgentUpdate } from './simulated-agent-update.js';

const build = (version: string) => ({ version, url: '/download/agent/releases/1', sha256: 'a'.repeat(64), size: 10 });

function host() {
  const h = { version: '14.0.0', notices: [] as (string | null)[], logs: [] as string[] };
  return {
    h,
    host: {
      version: () => h.version,
      notice: (_p: number | null, s: string | null) => h.notices.push(s),
      setVersion: (v: string) => (h.version = v),
      log: (m: string) => h.logs.push(m),
    },
  };
}

describe('simulatedAgentUpdate', () => {
  it('reports the download and restart, then the new version', async () => {
    const scheduler = new Scheduler();
    const { h, host: x } = host();
    const update = simulatedAgentUpdate(scheduler, x, () => 20, false);
    update(build('14.0.0'));
    expect(h.notices).toEqual([]);
    update(build('15.0.0'));
    update(build('15.0.0'));
    await new Promise((r) => setTimeout(r, 60));
    expect(h.notices).toEqual(['Downloading agent 15.0.0', 'Restarting into agent 15.0.0', null]);
    expect(h.version).toBe('15.0.0');
    scheduler.stop();
  });

  it('with fail: reports the failed start, keeps its version and does not try the build again', async () => {
    const scheduler = new Scheduler();
    const { h, host: x } = host();
    const update = simulatedAgentUpdate(scheduler, x, () => 20, true);
    update(build('15.0.0'));
    await new Promise((r) => setTimeout(r, 60));
    update(build('15.0.0'));
    await new Promise((r) => setTimeout(r, 60));
    expect(h.notices).toEqual(['Downloading agent 15.0.0', 'Restarting into agent 15.0.0', 'Agent update to 15.0.0 failed: it exited during its start (simulated); running agent 14.0.0']);
    expect(h.version).toBe('14.0.0');
    scheduler.stop();
  });
});
