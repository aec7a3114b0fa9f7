import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEMVER_THREE_PART_MESSAGE, SUPPORTED_SERVICE_KEYS } from '@flotilla/model';
import { UNSUPPORTED_COMPOSITION_MESSAGE } from './release-composition.js';
import { ONE_SUCCESS_PER_COMMIT_MESSAGE } from './one-success-per-commit.js';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Releases on the server (issue 4): creating them as `balena deploy` does, the release
// rules and their messages, the fleet's target release (pinned or tracking the latest),
// table rights for observers and developers, and isolation between organizations.
let t: TestApp;
let owner: SignedUpUser;
let dt: number;
const fleetRoles: Record<string, number> = {};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const req = (token: string, method: Method, url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const commitHash = () => randomBytes(20).toString('hex');

async function fleet(by = owner): Promise<number> {
  const res = await req(by.token, 'POST', '/v7/application', { app_name: `Fleet${randomBytes(4).toString('hex')}`, organization: by.orgId, is_for__device_type: dt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function createRelease(appId: number, extra: Record<string, unknown> = {}, by = owner): Promise<number> {
  const res = await req(by.token, 'POST', '/v7/release', {
    belongs_to__application: appId,
    commit: commitHash(),
    status: 'running',
    source: 'cloud',
    composition: { services: { main: { build: '.' } } },
    start_timestamp: new Date().toISOString(),
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A service of the fleet (get or create, as balena-cli does) and a running image of it. */
async function createImage(appId: number, serviceName = 'main', by = owner): Promise<number> {
  const found = await req(by.token, 'GET', `/v7/service?$select=id&$filter=application eq ${appId} and service_name eq '${serviceName}'`);
  let serviceId: number | undefined = found.json().d[0]?.id;
  if (serviceId === undefined) {
    const created = await req(by.token, 'POST', '/v7/service', { application: appId, service_name: serviceName });
    expect(created.statusCode, created.body).toBe(201);
    serviceId = created.json().id as number;
  }
  const image = await req(by.token, 'POST', '/v7/image', { is_a_build_of__service: serviceId, status: 'running', start_timestamp: new Date().toISOString(), project_type: 'Dockerfile' });
  expect(image.statusCode, image.body).toBe(201);
  return image.json().id;
}

/** The whole deploy: release → service → image → release_image → image success → release success. */
async function deploy(appId: number, extra: Record<string, unknown> = {}, by = owner): Promise<number> {
  const releaseId = await createRelease(appId, extra, by);
  const imageId = await createImage(appId, 'main', by);
  expect((await req(by.token, 'POST', '/v7/release_image', { image: imageId, is_part_of__release: releaseId })).statusCode).toBe(201);
  const done = { status: 'success', end_timestamp: new Date().toISOString() };
  expect((await req(by.token, 'PATCH', `/v7/image(${imageId})`, { ...done, push_timestamp: done.end_timestamp, image_size: 1234, content_hash: 'sha256:abc' })).statusCode).toBe(200);
  const res = await req(by.token, 'PATCH', `/v7/release(${releaseId})`, done);
  expect(res.statusCode, res.body).toBe(200);
  return releaseId;
}

async function row<T = Record<string, unknown>>(table: string, id: number): Promise<T | undefined> {
  return (await t.db.query(`SELECT * FROM "${table}" WHERE id = $1`, [id])).rows[0] as T | undefined;
}
const count = async (sql: string, params: unknown[]) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql}) x`, params)).rows[0]!.n;
const target = async (appId: number) => (await row<{ should_be_running__release: number | null }>('application', appId))!.should_be_running__release;

/** A user of the owner's organization holding `role` on the fleet through a fleet membership. */
async function fleetMember(appId: number, role: 'observer' | 'operator' | 'developer'): Promise<SignedUpUser> {
  const u = await signUp(t.app);
  const memberRole = (await t.db.query<{ id: number }>(`SELECT id FROM organization_membership_role WHERE name = 'member'`)).rows[0]!.id;
  await t.db.query('INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role) VALUES ($1, $2, $3)', [u.userId, owner.orgId, memberRole]);
  await t.db.query('INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role) VALUES ($1, $2, $3)', [u.userId, appId, fleetRoles[role]]);
  return u;
}

async function insertDevice(appId: number, pinnedOn: number | null = null): Promise<number> {
  const actor = (await t.db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO device (actor, uuid, device_name, belongs_to__application, is_of__device_type, is_pinned_on__release) VALUES ($1, $2, 'dev', $3, $4, $5) RETURNING id`,
    [actor, randomBytes(16).toString('hex'), appId, dt, pinnedOn],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  dt = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
  for (const r of (await t.db.query<{ id: number; name: string }>('SELECT id, name FROM application_membership_role')).rows) fleetRoles[r.name] = r.id;
});
afterAll(async () => {
  await t?.close();
});

describe('creating releases as balena deploy does', () => {
  it('creates a running release by the caller, a service, an image at a server-named location, joins them and marks them successful', async () => {
    const appId = await fleet();
    const releaseId = await createRelease(appId, { semver: '1.4.0' });
    const release = (await req(owner.token, 'GET', `/v7/release(${releaseId})`)).json().d[0];
    expect(release).toMatchObject({ status: 'running', source: 'cloud', is_created_by__user: { __id: owner.userId }, semver: '1.4.0', semver_minor: 4, is_final: true });
    expect(release.composition).toEqual({ services: { main: { build: '.' } } });

    const imageId = await createImage(appId);
    const image = (await req(owner.token, 'GET', `/v7/image(${imageId})?$select=is_stored_at__image_location`)).json().d[0];
    expect(image.is_stored_at__image_location).toMatch(/^localhost:8080\/v2\/[0-9a-f]{32}$/);
    expect(await createImage(appId).then((id) => row<{ is_stored_at__image_location: string }>('image', id))).not.toMatchObject(image);

    const joined = await req(owner.token, 'POST', '/v7/release_image', { image: imageId, is_part_of__release: releaseId });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json()).toMatchObject({ image: { __id: imageId }, is_part_of__release: { __id: releaseId } });

    await t.db.query(`UPDATE release SET update_timestamp = now() - interval '1 hour' WHERE id = $1`, [releaseId]);
    const ended = '2026-02-01T10:00:00.000Z';
    expect((await req(owner.token, 'PATCH', `/v7/image(${imageId})`, { status: 'success', end_timestamp: ended, push_timestamp: ended, image_size: 5_000_000_000, content_hash: 'sha256:00ff' })).statusCode).toBe(200);
    expect((await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { status: 'success', end_timestamp: ended })).statusCode).toBe(200);

    const full = (
      await req(owner.token, 'GET', `/v7/release(${releaseId})?$select=status,end_timestamp,update_timestamp&$expand=release_image($expand=image($select=status,image_size,content_hash;$expand=is_a_build_of__service($select=service_name)))`)
    ).json().d[0];
    expect(full.status).toBe('success');
    expect(full.end_timestamp).toBe(ended);
    expect(Date.now() - new Date(full.update_timestamp).getTime()).toBeLessThan(10 * 60_000);
    expect(full.release_image[0].image[0]).toEqual({ status: 'success', image_size: 5_000_000_000, content_hash: 'sha256:00ff', is_a_build_of__service: [{ service_name: 'main' }] });
  });

  it('refreshes update_timestamp on every release PATCH and never lets a client set it', async () => {
    const releaseId = await createRelease(await fleet());
    await t.db.query(`UPDATE release SET update_timestamp = '2020-01-01T00:00:00Z' WHERE id = $1`, [releaseId]);
    expect((await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { note: 'hello' })).statusCode).toBe(200);
    const after = (await row<{ update_timestamp: Date }>('release', releaseId))!.update_timestamp;
    expect(after.getTime()).toBeGreaterThan(new Date('2025-01-01').getTime());
    const res = await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { update_timestamp: '2020-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect((await row<{ update_timestamp: Date }>('release', releaseId))!.update_timestamp).toEqual(after);
  });

  it('refuses naming another user as the creator, and creates nothing', async () => {
    const appId = await fleet();
    const other = await signUp(t.app);
    // Someone the caller cannot even read is refused like a user that does not exist (issue 11);
    // a member of the caller's organization by the rule's message.
    const stranger = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'running', is_created_by__user: other.userId });
    expect(stranger.statusCode).toBe(401);
    await addOrganizationMember(t.db, other.userId, owner.orgId);
    const res = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'running', is_created_by__user: other.userId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('A release can only be created by the calling user');
    expect(await count('SELECT 1 FROM release WHERE belongs_to__application = $1', [appId])).toBe(0);
    const self = await createRelease(appId, { is_created_by__user: owner.userId });
    expect((await row<{ is_created_by__user: number }>('release', self))!.is_created_by__user).toBe(owner.userId);
  });

  it('refuses a status outside the release vocabulary', async () => {
    const appId = await fleet();
    const res = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'done' });
    expect(res.statusCode).toBe(400);
    const releaseId = await createRelease(appId);
    expect((await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { status: 'finished' })).statusCode).toBe(400);
    expect((await row<{ status: string }>('release', releaseId))!.status).toBe('running');
    expect(await count('SELECT 1 FROM release WHERE belongs_to__application = $1', [appId])).toBe(1);
  });

  it('refuses a composition the agent cannot apply, naming every problem, and creates or changes nothing', async () => {
    const appId = await fleet();
    const bad = {
      version: '2.1',
      services: { main: { build: '.', privileged: true, volumes: ['/:/host'], restart: 'sometimes' }, side: { image: 'x', network_mode: 'container:main' } },
    };
    const res = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'running', source: 'cloud', composition: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(
      `${UNSUPPORTED_COMPOSITION_MESSAGE}: service "main": unsupported key "privileged" (supported: ${SUPPORTED_SERVICE_KEYS.join(', ')}); ` +
        'service "main": volume "/:/host" is a bind mount; only named volumes are supported; ' +
        'service "main": restart must be one of no, always, on-failure, unless-stopped (or on-failure:N, N ≤ 10000); ' +
        'service "side": network_mode must be one of bridge, host, none',
    );
    const notObject = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'running', source: 'cloud', composition: 'services: {}' });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json()).toBe(`${UNSUPPORTED_COMPOSITION_MESSAGE}: the composition must be an object with "services"`);
    expect(await count('SELECT 1 FROM release WHERE belongs_to__application = $1', [appId])).toBe(0);

    const releaseId = await createRelease(appId);
    const patch = await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { composition: { services: { main: { image: 'x', devices: ['/dev/mem'] } } }, note: 'changed' });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toBe(`${UNSUPPORTED_COMPOSITION_MESSAGE}: service "main": unsupported key "devices" (supported: ${SUPPORTED_SERVICE_KEYS.join(', ')})`);
    const kept = (await row<{ composition: unknown; note: string | null }>('release', releaseId))!;
    expect(kept.composition).toEqual({ services: { main: { build: '.' } } });
    expect(kept.note).toBeNull();
  });

  it('accepts compositions as balena-cli and balena-sdk clients send them: keys the agent ignores harmlessly, {} and built services without image', async () => {
    const appId = await fleet();
    const balenaCli = {
      version: '2.1',
      networks: { default: {} },
      volumes: { data: {} },
      services: {
        main: { build: { context: '.', dockerfile: 'Dockerfile', network: 'host' }, image: 'main', healthcheck: { test: ['CMD', 'true'] }, networks: ['default'], tty: true, restart: 'on-failure:5', volumes: ['data:/data'] },
        side: { depends_on: ['main'], logging: { driver: 'json-file' }, 'x-note': 'hi' },
      },
    };
    const id = await createRelease(appId, { composition: balenaCli });
    expect((await row<{ composition: unknown }>('release', id))!.composition).toEqual(balenaCli);
    await createRelease(appId, { composition: {} });
    const patch = await req(owner.token, 'PATCH', `/v7/release(${id})`, { composition: { services: { main: { image: 'busybox', network_mode: 'host' } } } });
    expect(patch.statusCode, patch.body).toBe(200);
  });

  it('answers a duplicate service with 409 Unique key constraint violated', async () => {
    const appId = await fleet();
    await createImage(appId, 'api');
    const dup = await req(owner.token, 'POST', '/v7/service', { application: appId, service_name: 'api' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toBe('Unique key constraint violated');
    expect(await count('SELECT 1 FROM service WHERE application = $1', [appId])).toBe(1);
  });

  it("refuses an image of another fleet's service in a release, and joins nothing", async () => {
    const appA = await fleet();
    const appB = await fleet();
    const releaseId = await createRelease(appA);
    const foreignImage = await createImage(appB);
    const res = await req(owner.token, 'POST', '/v7/image__is_part_of__release', { image: foreignImage, is_part_of__release: releaseId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe("The image must be a build of a service of the release's fleet");
    expect(await count('SELECT 1 FROM image__is_part_of__release WHERE is_part_of__release = $1', [releaseId])).toBe(0);
  });
});

describe('one successful release per commit', () => {
  it('refuses a second successful release of a commit in a fleet, by POST or by PATCH, with 409', async () => {
    const appId = await fleet();
    const commit = commitHash();
    const first = await deploy(appId, { commit });
    const post = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: appId, commit, status: 'success' });
    expect(post.statusCode).toBe(409);
    expect(post.json()).toBe(ONE_SUCCESS_PER_COMMIT_MESSAGE);
    const second = await createRelease(appId, { commit });
    const patch = await req(owner.token, 'PATCH', `/v7/release(${second})`, { status: 'success' });
    expect(patch.statusCode).toBe(409);
    expect(patch.json()).toBe(ONE_SUCCESS_PER_COMMIT_MESSAGE);
    expect((await row<{ status: string }>('release', second))!.status).toBe('running');
    expect(await count(`SELECT 1 FROM release WHERE commit = $1 AND status = 'success'`, [commit])).toBe(1);
    expect(await target(appId)).toBe(first);
  });

  it('allows the same commit to succeed in two fleets, and a failed build to be retried', async () => {
    const commit = commitHash();
    const appA = await fleet();
    const failed = await createRelease(appA, { commit });
    expect((await req(owner.token, 'PATCH', `/v7/release(${failed})`, { status: 'failed' })).statusCode).toBe(200);
    await deploy(appA, { commit });
    await deploy(await fleet(), { commit });
    expect(await count(`SELECT 1 FROM release WHERE commit = $1 AND status = 'success'`, [commit])).toBe(2);
  });
});

describe('semver and raw_version', () => {
  it('accepts only three-part versions and keeps the parts', async () => {
    const releaseId = await createRelease(await fleet());
    for (const semver of ['1.2', '1.2.3-beta.1', 'v1.2.3', '1.2.3.4']) {
      const res = await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { semver });
      expect(res.statusCode, semver).toBe(400);
      expect(res.json()).toBe(SEMVER_THREE_PART_MESSAGE);
    }
    expect(await row('release', releaseId)).toMatchObject({ semver: '0.0.0', raw_version: '0.0.0' });
    expect((await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { semver: '10.20.30' })).statusCode).toBe(200);
    expect(await row('release', releaseId)).toMatchObject({ semver: '10.20.30', semver_major: 10, semver_minor: 20, semver_patch: 30, raw_version: '10.20.30', revision: 0 });
    const bad = await req(owner.token, 'POST', '/v7/release', { belongs_to__application: (await row<{ belongs_to__application: number }>('release', releaseId))!.belongs_to__application, commit: commitHash(), status: 'running', semver: '1.0' });
    expect(bad.statusCode).toBe(400);
  });

  it('numbers final releases sharing a semver as <semver>+rev<N>', async () => {
    const appId = await fleet();
    const a = await deploy(appId, { semver: '2.0.0' });
    const b = await deploy(appId, { semver: '2.0.0' });
    const c = await createRelease(appId, { semver: '1.0.0' });
    expect((await row('release', a))!.raw_version).toBe('2.0.0');
    expect((await row('release', b))!.raw_version).toBe('2.0.0+rev1');
    expect((await row('release', c))!.raw_version).toBe('1.0.0');
    // Moving a final release to a taken semver numbers it within that version.
    expect((await req(owner.token, 'PATCH', `/v7/release(${c})`, { semver: '2.0.0' })).statusCode).toBe(200);
    expect((await row('release', c))!.raw_version).toBe('2.0.0+rev2');
    // Naming the same semver again changes nothing.
    expect((await req(owner.token, 'PATCH', `/v7/release(${b})`, { semver: '2.0.0' })).statusCode).toBe(200);
    expect((await row('release', b))!.raw_version).toBe('2.0.0+rev1');
  });

  it('gives a draft <semver>-<created_at ms> and the final version once finalized', async () => {
    const appId = await fleet();
    await deploy(appId, { semver: '3.1.0' });
    const draft = await createRelease(appId, { is_final: false, semver: '3.1.0' });
    const r = (await row<{ raw_version: string; created_at: Date; revision: number | null }>('release', draft))!;
    expect(r.raw_version).toBe(`3.1.0-${r.created_at.getTime()}`);
    expect(r.revision).toBeNull();
    expect((await req(owner.token, 'PATCH', `/v7/release(${draft})`, { is_final: true })).statusCode).toBe(200);
    expect(await row('release', draft)).toMatchObject({ is_final: true, raw_version: '3.1.0+rev1', revision: 1 });
  });
});

describe('finalizing', () => {
  it('is one-way: a final release cannot become a draft', async () => {
    const releaseId = await deploy(await fleet());
    const res = await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { is_final: false, note: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('already finalized');
    expect(await row('release', releaseId)).toMatchObject({ is_final: true, note: null });
  });
});

describe('validating and invalidating', () => {
  for (const status of ['failed', 'error', 'interrupted', 'cancelled', 'timeout']) {
    it(`refuses to make a ${status} release valid`, async () => {
      const releaseId = await createRelease(await fleet(), { status });
      expect((await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { is_invalidated: true })).statusCode).toBe(200);
      const res = await req(owner.token, 'PATCH', `/v7/release(${releaseId})`, { is_invalidated: false });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('cannot validate failed releases');
      expect((await row('release', releaseId))!.is_invalidated).toBe(true);
    });
  }

  it('treats a running release idle for over 120 minutes as timeout, and validates successful ones', async () => {
    const appId = await fleet();
    const stale = await createRelease(appId, { is_final: false });
    await t.db.query(`UPDATE release SET is_invalidated = true, update_timestamp = now() - interval '121 minutes' WHERE id = $1`, [stale]);
    expect((await req(owner.token, 'PATCH', `/v7/release(${stale})`, { is_invalidated: false })).statusCode).toBe(400);
    await t.db.query(`UPDATE release SET update_timestamp = now() - interval '100 minutes' WHERE id = $1`, [stale]);
    expect((await req(owner.token, 'PATCH', `/v7/release(${stale})`, { is_invalidated: false })).statusCode).toBe(200);
    const ok = await deploy(appId);
    expect((await req(owner.token, 'PATCH', `/v7/release(${ok})`, { is_invalidated: true })).statusCode).toBe(200);
    expect((await req(owner.token, 'PATCH', `/v7/release(${ok})`, { is_invalidated: false })).statusCode).toBe(200);
    expect((await row('release', ok))!.is_invalidated).toBe(false);
  });
});

describe('deleting releases', () => {
  it("refuses to delete a fleet's target release or a device's pinned release", async () => {
    const appId = await fleet();
    const targeted = await deploy(appId);
    expect(await target(appId)).toBe(targeted);
    const res = await req(owner.token, 'DELETE', `/v7/release(${targeted})`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('cannot delete pinned releases');
    expect(await row('release', targeted)).toBeDefined();

    const pinned = await deploy(appId, { is_final: false });
    await insertDevice(appId, pinned);
    expect((await req(owner.token, 'DELETE', `/v7/release?$filter=id in (${pinned})`)).json()).toBe('cannot delete pinned releases');
    expect(await row('release', pinned)).toBeDefined();

    const free = await deploy(appId, { is_final: false });
    expect((await req(owner.token, 'DELETE', `/v7/release(${free})`)).statusCode).toBe(200);
    expect(await row('release', free)).toBeUndefined();
  });
});

describe('table rights', () => {
  it('lets an observer read releases but not create, change or delete them', async () => {
    const appId = await fleet();
    const releaseId = await deploy(appId, { is_final: false });
    const observer = await fleetMember(appId, 'observer');
    expect((await req(observer.token, 'GET', `/v7/release(${releaseId})?$select=id`)).json().d).toEqual([{ id: releaseId }]);
    const post = await req(observer.token, 'POST', '/v7/release', { belongs_to__application: appId, commit: commitHash(), status: 'running' });
    expect(post.statusCode).toBe(401);
    expect((await req(observer.token, 'POST', '/v7/service', { application: appId, service_name: 'obs' })).statusCode).toBe(401);
    expect((await req(observer.token, 'POST', '/v7/release_tag', { release: releaseId, tag_key: 'k', value: 'v' })).statusCode).toBe(401);
    await req(observer.token, 'PATCH', `/v7/release(${releaseId})`, { note: 'observed' });
    await req(observer.token, 'DELETE', `/v7/release(${releaseId})`);
    expect(await row('release', releaseId)).toMatchObject({ note: null });
    expect(await count('SELECT 1 FROM release WHERE belongs_to__application = $1', [appId])).toBe(1);
    expect(await count('SELECT 1 FROM release_tag WHERE release = $1', [releaseId])).toBe(0);
  });

  it('lets a developer deploy, tag, edit and delete releases', async () => {
    const appId = await fleet();
    const developer = await fleetMember(appId, 'developer');
    const releaseId = await deploy(appId, { is_final: false }, developer);
    expect((await row<{ is_created_by__user: number }>('release', releaseId))!.is_created_by__user).toBe(developer.userId);
    expect((await req(developer.token, 'POST', '/v7/release_tag', { release: releaseId, tag_key: 'k', value: 'v' })).statusCode).toBe(201);
    expect((await req(developer.token, 'PATCH', `/v7/release(${releaseId})`, { note: 'dev note', known_issue_list: 'none' })).statusCode).toBe(200);
    expect(await row('release', releaseId)).toMatchObject({ note: 'dev note', known_issue_list: 'none' });
    expect((await req(developer.token, 'DELETE', `/v7/release(${releaseId})`)).statusCode).toBe(200);
    expect(await row('release', releaseId)).toBeUndefined();
  });
});

describe("the fleet's target release", () => {
  it('accepts only a successful release of the same fleet as a pin, which stops tracking', async () => {
    const appId = await fleet();
    const good = await deploy(appId);
    const running = await createRelease(appId);
    const other = await deploy(await fleet());
    for (const bad of [running, other]) {
      const res = await req(owner.token, 'PATCH', `/v7/application(${appId})`, { should_be_running__release: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toBe('The target release must be a successful release of this fleet');
    }
    // A release that does not exist is refused like one the caller cannot read (issue 11).
    expect((await req(owner.token, 'PATCH', `/v7/application(${appId})`, { should_be_running__release: 999_999 })).statusCode).toBe(401);
    expect(await row('application', appId)).toMatchObject({ should_be_running__release: good, should_track_latest_release: true });

    const older = await deploy(appId);
    await t.db.query(`UPDATE release SET created_at = now() - interval '1 day' WHERE id = $1`, [older]);
    expect((await req(owner.token, 'PATCH', `/v7/application(${appId})`, { should_be_running__release: older })).statusCode).toBe(200);
    expect(await row('application', appId)).toMatchObject({ should_be_running__release: older, should_track_latest_release: false });
    // A pinned fleet stays where it is when newer releases arrive.
    await deploy(appId);
    expect(await target(appId)).toBe(older);
  });

  it('keeps a tracking fleet on its newest final, successful, valid release', async () => {
    const appId = await fleet();
    expect(await target(appId)).toBeNull();
    const first = await deploy(appId);
    expect(await target(appId)).toBe(first);
    const second = await deploy(appId);
    expect(await target(appId)).toBe(second);
    const draft = await deploy(appId, { is_final: false });
    expect(await target(appId)).toBe(second);
    const failed = await createRelease(appId);
    await req(owner.token, 'PATCH', `/v7/release(${failed})`, { status: 'failed' });
    expect(await target(appId)).toBe(second);

    // Invalidating the target moves the fleet (and so its unpinned devices) to the previous one.
    expect((await req(owner.token, 'PATCH', `/v7/release(${second})`, { is_invalidated: true })).statusCode).toBe(200);
    expect(await target(appId)).toBe(first);
    expect((await req(owner.token, 'PATCH', `/v7/release(${second})`, { is_invalidated: false })).statusCode).toBe(200);
    expect(await target(appId)).toBe(second);

    expect((await req(owner.token, 'PATCH', `/v7/release(${draft})`, { is_final: true })).statusCode).toBe(200);
    expect(await target(appId)).toBe(draft);

    // An invalidated pin stays: only tracking fleets move.
    expect((await req(owner.token, 'PATCH', `/v7/application(${appId})`, { should_be_running__release: first, should_track_latest_release: false })).statusCode).toBe(200);
    expect((await req(owner.token, 'PATCH', `/v7/release(${first})`, { is_invalidated: true })).statusCode).toBe(200);
    expect(await target(appId)).toBe(first);

    // Switching tracking back on moves the fleet to the newest valid release.
    expect((await req(owner.token, 'PATCH', `/v7/application(${appId})`, { should_track_latest_release: true })).statusCode).toBe(200);
    expect(await target(appId)).toBe(draft);
  });
});

describe('isolation between organizations', () => {
  it("keeps another organization's user away from a fleet's releases, images and tags", async () => {
    const appId = await fleet();
    const releaseId = await deploy(appId, { is_final: false });
    const imageId = (await t.db.query<{ image: number }>('SELECT image FROM image__is_part_of__release WHERE is_part_of__release = $1', [releaseId])).rows[0]!.image;
    const tag = await req(owner.token, 'POST', '/v7/release_tag', { release: releaseId, tag_key: 'secret', value: 'sauce' });
    expect(tag.statusCode).toBe(201);
    const tagId = tag.json().id as number;

    const outsider = await signUp(t.app);
    const own = await fleet(outsider);
    const ownImage = await createImage(own, 'main', outsider);
    for (const url of [
      `/v7/release(${releaseId})`,
      `/v7/image(${imageId})`,
      `/v7/release_tag(${tagId})`,
      `/v7/release?$filter=release_tag/any(t:t/tag_key eq 'secret')`,
      `/v7/image?$filter=is_part_of__release/any(ir:ir/is_part_of__release eq ${releaseId})`,
      `/v7/service?$filter=application eq ${appId}`,
      `/v7/application(${own})?$expand=owns__release,service`,
      `/v7/release_image?$filter=is_part_of__release eq ${releaseId}`,
    ]) {
      const res = await req(outsider.token, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      const d = res.json().d as Record<string, unknown>[];
      if (url.includes(`application(${own})`)) expect(d[0], url).toMatchObject({ owns__release: [], service: [expect.objectContaining({ service_name: 'main' })] });
      else expect(d, url).toEqual([]);
    }

    await req(outsider.token, 'PATCH', `/v7/release(${releaseId})`, { note: 'mine' });
    await req(outsider.token, 'PATCH', `/v7/image(${imageId})`, { build_log: 'mine' });
    await req(outsider.token, 'PATCH', `/v7/release_tag(${tagId})`, { value: 'mine' });
    await req(outsider.token, 'DELETE', `/v7/release_tag(${tagId})`);
    await req(outsider.token, 'DELETE', `/v7/image(${imageId})`);
    await req(outsider.token, 'DELETE', `/v7/release?$filter=id eq ${releaseId}`);
    expect(await row('release', releaseId)).toMatchObject({ note: null });
    expect(await row('image', imageId)).toMatchObject({ build_log: null });
    expect(await row('release_tag', tagId)).toMatchObject({ value: 'sauce' });

    const attach = await req(outsider.token, 'POST', '/v7/release_image', { image: ownImage, is_part_of__release: releaseId });
    expect(attach.statusCode).toBe(401);
    expect((await req(outsider.token, 'POST', '/v7/release_tag', { release: releaseId, tag_key: 'x', value: 'y' })).statusCode).toBe(401);
    expect(await count('SELECT 1 FROM image__is_part_of__release WHERE is_part_of__release = $1', [releaseId])).toBe(1);
    expect(await count('SELECT 1 FROM release_tag WHERE release = $1', [releaseId])).toBe(1);

    // Nor can they point their own fleet at it (a release they cannot read: 401, issue 11).
    const pin = await req(outsider.token, 'PATCH', `/v7/application(${own})`, { should_be_running__release: releaseId });
    expect(pin.statusCode).toBe(401);
    expect(await target(own)).toBeNull();
  });
});
