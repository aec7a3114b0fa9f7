import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENT_BUILD_TAG, AGENT_VERSION, catalogueFleets, MAX_AGENT_BUILD_BYTES, SUPERVISOR_BLOCK_SUFFIX } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulation } from '@flotilla/agent';
import { bearer, buildTestApp, signInStaff, insertFleet, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertDevice } from '../../../test/support/cloud-link.js';

/*
 * Issue 17 item 4: Flotilla's agent builds as the artifacts of supervisor releases. A platform
 * administrator publishes a build (POST /admin/v1/supervisor-releases), balena-sdk lists the
 * release, the device downloads the build by its release, a device pinned to it finds it in its
 * target state; the server's own bundle is the build of its agent version's release.
 */
let t: TestApp;
let apiUrl: string;
let adminToken: string;
let supportToken: string;
let owner: SignedUpUser;
/** The supervisor blocks of the catalogue (one per architecture some device type has). */
const BLOCKS = catalogueFleets().filter((f) => f.kind === 'supervisor').map((f) => f.appName).sort();

/** A minimal agent build: the bundle's banner with `version`, then code. */
const build = (version: string, code = 'console.log("agent");') => Buffer.from(`#!/usr/bin/env node\n// flotilla-agent ${version}: test build\n${code}\n`);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const publish = (query: string, body: Buffer | undefined, token?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/admin/v1/supervisor-releases?${query}`,
    headers: { 'content-type': 'application/octet-stream', ...(token ? bearer(token) : {}) },
    ...(body ? { payload: body } : {}),
  });
const releaseCount = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.app_name LIKE '%-supervisor'`)).rows[0]!.n);

async function staffToken(email: string, platformRole: 'administrator' | 'support_agent') {
  return (await signInStaff(t.app, t.db, platformRole, email)).token;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  adminToken = await staffToken('agent-releases-admin@example.com', 'administrator');
  supportToken = await staffToken('agent-releases-support@example.com', 'support_agent');
  owner = await signUp(t.app);
});
afterAll(() => t?.close());

describe('POST /admin/v1/supervisor-releases', () => {
  it('refuses anyone but a platform administrator (401 signed out, 403 otherwise), writing nothing', async () => {
    const before = await releaseCount();
    expect((await publish('version=20.0.0&arch=all', build('20.0.0'))).statusCode).toBe(401);
    for (const token of [owner.token, supportToken]) {
      const res = await publish('version=20.0.0&arch=all', build('20.0.0'), token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toBe('Only platform administrators may publish supervisor releases');
    }
    expect(await releaseCount()).toBe(before);
  });

  it('publishes a build as a release of one architecture, which balena-sdk lists and a device downloads', async () => {
    const body = build('18.0.0');
    const res = await publish('version=18.0.0&arch=armv7hf', body, adminToken);
    expect(res.statusCode, res.body).toBe(201);
    const { releases } = res.json() as { releases: { id: number; arch: string; version: string; sha256: string; size: number }[] };
    expect(releases).toEqual([{ id: expect.any(Number), arch: 'armv7hf', version: '18.0.0', sha256: sha(body), size: body.length }]);
    const sdk = sdkClient(apiUrl);
    const listed = await sdk.models.os.getSupervisorReleasesForCpuArchitecture('armv7hf', { $select: ['id', 'raw_version', 'status', 'is_final'], $expand: { release_tag: { $select: ['tag_key', 'value'] } } });
    expect(listed[0]).toMatchObject({ id: releases[0]!.id, raw_version: '18.0.0', status: 'success', is_final: true });
    expect(listed[0]!.release_tag).toEqual([{ tag_key: AGENT_BUILD_TAG, value: sha(body) }]);
    expect((await sdk.models.os.getSupervisorReleasesForCpuArchitecture('aarch64')).map((r) => r.raw_version)).not.toContain('18.0.0');
    const download = await fetch(`${apiUrl}/download/agent/releases/${releases[0]!.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('etag')).toBe(`"${sha(body)}"`);
    expect(download.headers.get('x-checksum-sha256')).toBe(sha(body));
    expect(Buffer.from(await download.arrayBuffer()).equals(body)).toBe(true);
    const again = await fetch(`${apiUrl}/download/agent/releases/${releases[0]!.id}`, { headers: { 'if-none-match': `"${sha(body)}"` } });
    expect(again.status).toBe(304);
  });

  it('publishes for every architecture with arch=all, all or nothing', async () => {
    const body = build('18.1.0');
    const res = await publish('version=18.1.0&arch=all', body, adminToken);
    expect(res.statusCode, res.body).toBe(201);
    const { releases } = res.json() as { releases: { arch: string; sha256: string }[] };
    expect(releases.map((r) => `${r.arch}${SUPERVISOR_BLOCK_SUFFIX}`).sort()).toEqual(BLOCKS);
    expect(new Set(releases.map((r) => r.sha256))).toEqual(new Set([sha(body)]));
    // 18.0.0 exists for armv7hf only: publishing it for all is refused and adds nothing anywhere.
    const before = await releaseCount();
    const dup = await publish('version=18.0.0&arch=all', build('18.0.0'), adminToken);
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toBe('Supervisor release 18.0.0 already exists for armv7hf');
    expect(await releaseCount()).toBe(before);
  });

  it('refuses bad input with a clear message, writing nothing', async () => {
    const before = await releaseCount();
    const cases: [string, Buffer | undefined, string][] = [
      ['version=18.2&arch=all', build('18.2'), "Invalid supervisor version '18.2': use a version like 17.1.0"],
      ['version=v18.2.0&arch=all', build('18.2.0'), "Invalid supervisor version 'v18.2.0': use a version like 17.1.0"],
      ['version=17.0.2&arch=aarch64', build('17.0.2'), 'Supervisor release 17.0.2 already exists for aarch64'],
      ['version=18.2.0&arch=all', undefined, 'The request body is empty: send the agent build (the single file GET /download/agent serves)'],
      ['version=18.2.0&arch=all', Buffer.from('#!/bin/sh\necho not an agent\n'), "The body is not a Flotilla agent build: its first lines are not the agent bundle's banner"],
      ['version=18.2.0&arch=all', build('18.3.0'), 'The build is agent version 18.3.0, not 18.2.0: publish it as 18.3.0 or build the agent with version 18.2.0'],
      ['version=18.2.0&arch=sparc', build('18.2.0'), "Unknown CPU architecture 'sparc': use one of the catalogue's architectures or 'all'"],
    ];
    for (const [query, body, message] of cases) {
      const res = await publish(query, body, adminToken);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toBe(message);
    }
    expect((await publish('arch=all', build('18.2.0'), adminToken)).statusCode).toBe(400);
    expect(await releaseCount()).toBe(before);
  });

  it('refuses a build above the size limit with 413', async () => {
    const res = await publish('version=18.4.0&arch=all', Buffer.concat([build('18.4.0'), Buffer.alloc(MAX_AGENT_BUILD_BYTES)]), adminToken);
    expect(res.statusCode).toBe(413);
  });
});

describe("the server's own agent and the device's target state", () => {
  it("makes its bundle the build of its agent version's release in every architecture", async () => {
    const bundle = await fetch(`${apiUrl}/download/agent`);
    const body = Buffer.from(await bundle.arrayBuffer());
    expect(body.toString('utf8', 0, 200)).toContain(`// flotilla-agent ${AGENT_VERSION}:`);
    const { rows } = await t.db.query<{ id: number; app_name: string; value: string }>(
      `SELECT r.id, a.app_name, t.value FROM release r JOIN application a ON a.id = r.belongs_to__application
         JOIN supervisor_build b ON b.release = r.id AND b.bundled JOIN release_tag t ON t.release = r.id AND t.tag_key = $2
        WHERE r.raw_version = $1 ORDER BY a.app_name`,
      [AGENT_VERSION, AGENT_BUILD_TAG],
    );
    expect(rows.map((r) => r.app_name)).toEqual(BLOCKS);
    const served = await fetch(`${apiUrl}/download/agent/releases/${rows[0]!.id}`);
    expect(served.headers.get('x-checksum-sha256')).toBe(sha(body));
    expect(Buffer.from(await served.arrayBuffer()).equals(body)).toBe(true);
    // A seeded release without a build is catalogue only.
    const seeded = await t.db.query<{ id: number }>(`SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.app_name = 'aarch64-supervisor' AND r.raw_version = '16.4.6'`);
    expect((await fetch(`${apiUrl}/download/agent/releases/${seeded.rows[0]!.id}`)).status).toBe(404);
  });

  it('names the build of the pinned supervisor release in the v3 target state', async () => {
    const fleet = await insertFleet(t.db, owner, `AgentFleet${randomBytes(3).toString('hex')}`);
    const device = await insertDevice(t.db, fleet);
    await t.db.query(`UPDATE device SET os_version = 'balenaOS 6.0.10', os_variant = 'prod', supervisor_version = $2 WHERE id = $1`, [device.id, AGENT_VERSION]);
    const body = build('18.5.0');
    const published = await publish('version=18.5.0&arch=armv7hf', body, adminToken);
    const releaseId = (published.json() as { releases: { id: number }[] }).releases[0]!.id;
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    await sdk.models.device.pinToSupervisorRelease(device.uuid, releaseId);
    // A user of another organization can neither pin the device nor read its target state.
    const stranger = await signUp(t.app);
    const theirs = sdkClient(apiUrl);
    await theirs.auth.loginWithToken(stranger.token);
    await expect(theirs.models.device.pinToSupervisorRelease(device.uuid, releaseId)).rejects.toThrow();
    expect((await t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: bearer(stranger.token) })).statusCode).toBeGreaterThanOrEqual(400);
    await t.db.query('UPDATE device SET should_be_managed_by__release = NULL WHERE id = $1', [device.id]);
    await theirs.models.device.pinToSupervisorRelease(device.uuid, releaseId).catch(() => undefined);
    expect((await t.db.query('SELECT should_be_managed_by__release AS r FROM device WHERE id = $1', [device.id])).rows[0]).toEqual({ r: null });
    await sdk.models.device.pinToSupervisorRelease(device.uuid, releaseId);
    const state = await t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: bearer(device.key) });
    const apps = (state.json() as Record<string, { apps: Record<string, { class: string; releases: Record<string, { id: number; agent_build?: unknown }> }> }>)[device.uuid]!.apps;
    const supervisor = Object.values(apps).find((a) => a.class === 'block')!;
    expect(Object.values(supervisor.releases)[0]).toMatchObject({
      id: releaseId,
      agent_build: { version: '18.5.0', url: `/download/agent/releases/${releaseId}`, sha256: sha(body), size: body.length },
    });
  });
});

describe('flotilla deploy --supervisor', () => {
  const CLI = fileURLToPath(new URL('../../../../cli/bin/flotilla.mjs', import.meta.url));
  const flotilla = (args: string[], token: string, cwd: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd, timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: cwd, FLOTILLA_CONFIG_DIR: join(cwd, 'config'), FLOTILLA_API_URL: apiUrl, FLOTILLA_TOKEN: token } },
        (err, stdout, stderr) => done({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
      );
    });

  it('publishes a build file for an administrator, and shows the refusal to anyone else', async () => {
    const work = await mkdtemp(join(tmpdir(), 'flotilla-supervisor-'));
    try {
      const body = build('19.0.0');
      await writeFile(join(work, 'agent.mjs'), body);
      const refused = await flotilla(['deploy', '--supervisor', '--version', '19.0.0', '--file', 'agent.mjs'], owner.token, work);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('the server refused the release: Only platform administrators may publish supervisor releases (HTTP 403)');
      const ok = await flotilla(['deploy', '--supervisor', '--version', '19.0.0', '--file', 'agent.mjs', '--arch', 'aarch64'], adminToken, work);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain(`aarch64: release `);
      expect(ok.stdout).toContain(`sha256 ${sha(body)}`);
      const listed = await sdkClient(apiUrl).models.os.getSupervisorReleasesForCpuArchitecture('aarch64', { $select: ['raw_version'] });
      expect(listed[0]?.raw_version).toBe('19.0.0');
      const again = await flotilla(['deploy', '--supervisor', '--version', '19.0.0', '--file', 'agent.mjs', '--arch', 'aarch64'], adminToken, work);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('Supervisor release 19.0.0 already exists for aarch64');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('simulated devices', () => {
  it('mimic the agent update: the new version, or with --fail-agent-update the failure and the old version', async () => {
    const fleet = await insertFleet(t.db, owner, `SimFleet${randomBytes(3).toString('hex')}`);
    const provKey = (
      await t.app.inject({ method: 'POST', url: '/api-key/v2/', headers: bearer(owner.token), payload: { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] } })
    ).json<string>();
    const body = build('18.6.0');
    const releaseId = ((await publish('version=18.6.0&arch=armv7hf', body, adminToken)).json() as { releases: { id: number }[] }).releases[0]!.id;
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const run = async (fail: boolean, seed: number) => {
      const sim = await startSimulation({ api: apiUrl, provisioningKey: provKey, count: 1, fleetId: fleet, deviceType: 'raspberrypi3', seed, pollIntervalMs: 1_000, agentUpdateMs: [300, 600], failAgentUpdate: fail, logs: false, log: () => {} });
      try {
        const uuid = sim.devices[0]!.uuid;
        const read = () => t.db.query<{ supervisor_version: string | null; provisioning_state: string | null }>('SELECT supervisor_version, provisioning_state FROM device WHERE uuid = $1', [uuid]);
        await expect.poll(async () => (await read()).rows[0]?.supervisor_version, { timeout: 30_000 }).toBe(AGENT_VERSION);
        await sdk.models.device.pinToSupervisorRelease(uuid, releaseId);
        if (fail) {
          await expect.poll(async () => (await read()).rows[0]?.provisioning_state ?? '', { timeout: 30_000 }).toContain('Agent update to 18.6.0 failed');
          expect((await read()).rows[0]?.supervisor_version).toBe(AGENT_VERSION);
        } else {
          await expect.poll(async () => (await read()).rows[0]?.supervisor_version, { timeout: 30_000 }).toBe('18.6.0');
        }
      } finally {
        await sim.stop();
      }
    };
    await run(false, 101);
    await run(true, 202);
  }, 90_000);
});
