import { describe, expect, it } from 'vitest';
import { diffTarget, pollIntervalFrom, summarizeTarget, TargetStateError } from './target-state.js';

const uuid = 'a'.repeat(32);
function target(commit: string | null, services: Record<string, object> = { main: { id: 1, image_id: 11, image: 'reg/main@sha256:1' } }, config: object = {}) {
  return {
    [uuid]: {
      name: 'kitchen-pi',
      config: { BALENA_SUPERVISOR_POLL_INTERVAL: '30000', ...config },
      apps: {
        'host-app-uuid': { id: 900, name: 'balenaOS', class: 'fleet', is_host: true, releases: { hostcommit: { id: 1, services: { os: { id: 5, image_id: 6, image: 'os' } } } } },
        'supervisor-uuid': { id: 901, name: 'supervisor', class: 'app', releases: { supcommit: { id: 2, services: { supervisor: { id: 7, image_id: 8, image: 'sup' } } } } },
        'fleet-app-uuid': { id: 12, name: 'MyFleet', class: 'fleet', releases: commit ? { [commit]: { id: 40, services } } : {} },
      },
    },
  };
}

describe('reading the v3 target state', () => {
  it("picks the fleet's app by id and its release's services, ignoring host OS and supervisor", () => {
    const s = summarizeTarget(target('c1', { web: { id: 2, image_id: 22, image: 'w' }, api: { id: 3, image_id: 33, image: 'a' } }), uuid, 12);
    expect(s).toEqual({
      name: 'kitchen-pi',
      config: { BALENA_SUPERVISOR_POLL_INTERVAL: '30000' },
      appUuid: 'fleet-app-uuid',
      appId: 12,
      appName: 'MyFleet',
      agentBuild: null,
      release: {
        commit: 'c1',
        id: 40,
        services: [
          { name: 'api', id: 3, imageId: 33, image: 'a' },
          { name: 'web', id: 2, imageId: 22, image: 'w' },
        ],
      },
    });
  });

  it('with details (engine mode) keeps each service environment, labels and compose entry', () => {
    const main = { id: 1, image_id: 11, image: 'reg/main', environment: { A: '1' }, labels: { 'io.balena.update.strategy': 'kill-then-download' }, composition: { command: 'sleep 1' } };
    expect(summarizeTarget(target('c1', { main }), uuid, 12, true).release?.services).toEqual([
      { name: 'main', id: 1, imageId: 11, image: 'reg/main', environment: { A: '1' }, labels: { 'io.balena.update.strategy': 'kill-then-download' }, composition: { command: 'sleep 1' } },
    ]);
    expect(summarizeTarget(target('c1', { main }), uuid, 12).release?.services).toEqual([{ name: 'main', id: 1, imageId: 11, image: 'reg/main' }]);
  });

  it('has no release when the fleet has nothing to run', () => {
    expect(summarizeTarget(target(null), uuid, 12).release).toBeNull();
  });

  it('rejects a body without this device', () => {
    expect(() => summarizeTarget({ other: {} }, uuid, 12)).toThrow(TargetStateError);
  });
});

describe('diffing target states', () => {
  const t1 = summarizeTarget(target('c1'), uuid, 12);
  it('treats the first target as all new', () => {
    expect(diffTarget(null, t1)).toEqual({ releaseChanged: true, servicesChanged: true, configChanged: true, nameChanged: true });
  });

  it('sees no change in an identical target', () => {
    expect(diffTarget(t1, summarizeTarget(target('c1'), uuid, 12))).toEqual({ releaseChanged: false, servicesChanged: false, configChanged: false, nameChanged: false });
  });

  it('sees a new release, a changed service image and a changed config var separately', () => {
    expect(diffTarget(t1, summarizeTarget(target('c2'), uuid, 12))).toMatchObject({ releaseChanged: true, servicesChanged: true, configChanged: false });
    expect(diffTarget(t1, summarizeTarget(target('c1', { main: { id: 1, image_id: 12, image: 'reg/main@sha256:2' } }), uuid, 12))).toMatchObject({
      releaseChanged: false,
      servicesChanged: true,
    });
    expect(diffTarget(t1, summarizeTarget(target('c1', undefined, { FOO: 'bar' }), uuid, 12))).toMatchObject({ releaseChanged: false, configChanged: true });
  });

  it('with details, a changed service environment is a service change', () => {
    const withEnv = (v: string) => summarizeTarget(target('c1', { main: { id: 1, image_id: 11, image: 'm', environment: { A: v } } }), uuid, 12, true);
    expect(diffTarget(withEnv('1'), withEnv('1')).servicesChanged).toBe(false);
    expect(diffTarget(withEnv('1'), withEnv('2')).servicesChanged).toBe(true);
  });
});

describe('poll interval from the fleet config', () => {
  it('uses BALENA_ or RESIN_SUPERVISOR_POLL_INTERVAL in ms, else the fallback', () => {
    expect(pollIntervalFrom({ BALENA_SUPERVISOR_POLL_INTERVAL: '30000' }, 600_000)).toBe(30_000);
    expect(pollIntervalFrom({ RESIN_SUPERVISOR_POLL_INTERVAL: '45000' }, 600_000)).toBe(45_000);
    expect(pollIntervalFrom({ BALENA_SUPERVISOR_POLL_INTERVAL: 'soon' }, 600_000)).toBe(600_000);
    expect(pollIntervalFrom({ BALENA_SUPERVISOR_POLL_INTERVAL: '5' }, 600_000)).toBe(600_000);
    expect(pollIntervalFrom({}, 600_000)).toBe(600_000);
  });
});
