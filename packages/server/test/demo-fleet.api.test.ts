import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFleet } from '../../../scripts/demo-fleet.mjs';
import { buildTestApp, type TestApp } from './harness.js';

// FLOTILLA_DEMO_DEVICES (scripts/demo-fleet.mjs) against the real server over HTTP: the demo
// fleet gets a first release at once and a second after the configured delay, and the fleet
// (tracking its latest release) targets the newest.
describe('demo fleet (FLOTILLA_DEMO_DEVICES)', () => {
  let t: TestApp;
  let api: string;
  let dataDir: string;
  beforeAll(async () => {
    t = await buildTestApp();
    api = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dataDir = await mkdtemp(join(tmpdir(), 'flotilla-demo-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = async <T>(token: string, path: string): Promise<T> => {
    const res = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
  type Fleet = { should_be_running__release: { __id: number } | null; owns__release: { id: number; status: string; semver: string; release_image: unknown[] }[] };
  const fleetOf = async (token: string, id: number) =>
    (await get<{ d: Fleet[] }>(token, `/v7/application(${id})?$select=should_be_running__release&$expand=owns__release($select=id,status,semver;$orderby=id asc;$expand=release_image($select=id))`)).d[0]!;

  it('creates a first release at once and a second one after the delay, and the fleet targets the newest', { timeout: 60_000 }, async () => {
    const started = Date.now();
    const seeded = await seedDemoFleet({ api, dataDir, releaseDelayMs: 1_500 });
    const first = await fleetOf(seeded.token, seeded.fleet);
    expect(first.owns__release).toHaveLength(1);
    expect(first.owns__release[0]).toMatchObject({ status: 'success', semver: '1.0.0' });
    expect(first.owns__release[0]!.release_image.length).toBe(2);
    expect(first.should_be_running__release).toEqual({ __id: first.owns__release[0]!.id });

    const second = await seeded.secondRelease;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    const after = await fleetOf(seeded.token, seeded.fleet);
    expect(after.owns__release.map((r) => r.semver)).toEqual(['1.0.0', '1.1.0']);
    expect(after.owns__release[1]!.id).toBe(second);
    expect(after.should_be_running__release).toEqual({ __id: second });

    // A restart reuses the fleet and its releases: no third release.
    const again = await seedDemoFleet({ api, dataDir, releaseDelayMs: 0 });
    expect(again.fleet).toBe(seeded.fleet);
    expect(await again.secondRelease).toBeNull();
    expect((await fleetOf(seeded.token, seeded.fleet)).owns__release).toHaveLength(2);
  });
});
