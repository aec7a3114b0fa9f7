import { OS_PUBLISH_MESSAGES } from '@flotilla/model';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, signInStaff, insertFleet, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertDevice } from '../../../test/support/cloud-link.js';
import { seedReferenceData } from './seed.js';

/*
 * Issue 17: platform administrators publish and withdraw host OS releases of the public
 * catalogue (POST /admin/v1/os-releases, …/:id/withdraw); balena-sdk's os.* sees them at once,
 * the seed at start keeps them, nobody else may publish.
 */
let t: TestApp;
let apiUrl: string;
let adminToken: string;
let supportToken: string;
let user: SignedUpUser;

async function staffToken(email: string, platformRole: 'administrator' | 'support_agent') {
  return (await signInStaff(t.app, t.db, platformRole, email)).token;
}

const publish = (body: object, token: string | null = adminToken) =>
  t.app.inject({ method: 'POST', url: '/admin/v1/os-releases', headers: token ? bearer(token) : {}, payload: body });
const withdraw = (id: number, token: string | null = adminToken) =>
  t.app.inject({ method: 'POST', url: `/admin/v1/os-releases/${id}/withdraw`, headers: token ? bearer(token) : {} });
const catalogueRows = async () =>
  (
    await t.db.query(
      `SELECT r.id, r.raw_version, r.is_invalidated FROM release r JOIN application a ON a.id = r.belongs_to__application
        WHERE a.slug LIKE 'balena_os/%' ORDER BY r.id`,
    )
  ).rows;
// balena-sdk memoizes os.* answers for minutes: a fresh client sees what the server has now.
const osVersions = (deviceType: string) => sdkClient(apiUrl).models.os.getAvailableOsVersions(deviceType);
const versionsOf = async (deviceType: string) => (await osVersions(deviceType)).map((v) => v.raw_version);

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  adminToken = await staffToken('os-admin@example.com', 'administrator');
  supportToken = await staffToken('os-support@example.com', 'support_agent');
  user = await signUp(t.app);
});
afterAll(() => t?.close());

describe('POST /admin/v1/os-releases', () => {
  it('publishes a default-line release that balena-sdk lists at once, with the seeded releases’ fields and tags', async () => {
    const res = await publish({ deviceType: 'raspberrypi3', version: '6.2.0', variant: 'prod', phase: 'next', knownIssues: 'Slow boot on some cards.', releaseNotes: 'New kernel.' });
    expect(res.statusCode, res.body).toBe(201);
    const published = res.json();
    expect(published).toMatchObject({ deviceType: 'raspberrypi3', fleet: 'balena_os/raspberrypi3', raw_version: '6.2.0+rev0.prod', variant: 'prod', phase: 'next', esr: false });

    const versions = await osVersions('raspberrypi3');
    expect(versions.find((v) => v.raw_version === '6.2.0+rev0.prod')).toMatchObject({
      id: published.id,
      variant: 'prod',
      osType: 'default',
      line: 'next',
      strippedVersion: '6.2.0+rev0',
      basedOnVersion: '6.2.0',
      known_issue_list: 'Slow boot on some cards.',
    });
    const row = (
      await t.db.query(
        `SELECT status, is_final, is_invalidated, note, semver, semver_major, semver_minor, semver_patch, revision,
                (SELECT json_object_agg(tag_key, value) FROM release_tag WHERE release = r.id) AS tags
           FROM release r WHERE id = $1`,
        [published.id],
      )
    ).rows[0];
    expect(row).toEqual({
      status: 'success',
      is_final: true,
      is_invalidated: false,
      note: 'New kernel.',
      semver: '6.2.0',
      semver_major: 6,
      semver_minor: 2,
      semver_patch: 0,
      revision: 0,
      tags: { version: '6.2.0+rev0', variant: 'production', 'meta-balena-base': '6.2.0' },
    });
    // Other device types are not given it.
    expect(await versionsOf('intel-nuc')).not.toContain('6.2.0+rev0.prod');
  });

  it('publishes an ESR release into the ESR fleet with its base', async () => {
    const res = await publish({ deviceType: 'raspberrypi3', version: '2026.1.0+rev1', variant: 'dev', basedOn: '6.1.0' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ fleet: 'balena_os/raspberrypi3-esr', raw_version: '2026.1.0+rev1.dev', esr: true, phase: null });
    const versions = await osVersions('raspberrypi3');
    expect(versions.find((v) => v.raw_version === '2026.1.0+rev1.dev')).toMatchObject({ osType: 'esr', basedOnVersion: '6.1.0', variant: 'dev' });
    const supported = await sdkClient(apiUrl).models.os.getSupportedOsUpdateVersions('raspberrypi3', '2025.7.0+rev0.dev');
    expect(supported.versions).toContain('2026.1.0+rev1.dev');
  });

  it('refuses bad input with the model’s messages, writing nothing', async () => {
    const before = await catalogueRows();
    const cases: [object, string][] = [
      [{ deviceType: 'toaster', version: '6.3.0', variant: 'prod' }, OS_PUBLISH_MESSAGES.unknownDeviceType],
      [{ deviceType: 'fincm3', version: '6.3.0', variant: 'prod' }, OS_PUBLISH_MESSAGES.discontinued],
      [{ deviceType: 'raspberrypi3', version: '6.3', variant: 'prod' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ deviceType: 'raspberrypi3', version: '6.3.0-rc1', variant: 'prod' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ deviceType: 'raspberrypi3', version: '6.3.0', variant: 'debug' }, OS_PUBLISH_MESSAGES.badVariant],
      [{ deviceType: 'raspberrypi3', version: '6.3.0', variant: 'prod', phase: 'later' }, OS_PUBLISH_MESSAGES.badPhase],
      [{ deviceType: 'raspberrypi3', version: '2026.4.0', variant: 'prod' }, OS_PUBLISH_MESSAGES.esrWithoutBase],
      [{ deviceType: 'raspberrypi3', version: '2026.4.0', variant: 'prod', basedOn: '2025.7.0' }, OS_PUBLISH_MESSAGES.badBase],
      [{ deviceType: 'raspberrypi3', version: '6.0.10', variant: 'prod' }, OS_PUBLISH_MESSAGES.exists],
      [{ deviceType: 'raspberrypi3', version: '6.2.0+rev0', variant: 'prod' }, OS_PUBLISH_MESSAGES.exists],
      [{ deviceType: 'raspberrypi3', version: '2025.7.0', variant: 'dev', basedOn: '6.0.10' }, OS_PUBLISH_MESSAGES.exists],
    ];
    for (const [body, message] of cases) {
      const res = await publish(body);
      expect([res.statusCode, res.json()], JSON.stringify(body)).toEqual([400, message]);
    }
    // Oversized text is refused by the schema.
    expect((await publish({ deviceType: 'raspberrypi3', version: '6.3.0', variant: 'prod', releaseNotes: 'x'.repeat(2001) })).statusCode).toBe(400);
    expect(await catalogueRows()).toEqual(before);
  });

  it('is for platform administrators only: 401 signed out, 403 for support staff and users, nothing written', async () => {
    const before = await catalogueRows();
    const body = { deviceType: 'raspberrypi3', version: '6.4.0', variant: 'prod' };
    expect((await publish(body, null)).statusCode).toBe(401);
    for (const token of [supportToken, user.token]) {
      const res = await publish(body, token);
      expect([res.statusCode, res.json()]).toEqual([403, 'Only platform administrators may publish or withdraw OS releases']);
      // Even a bad body: the caller learns nothing from the validation.
      expect((await publish({ nonsense: 1 }, token)).statusCode).toBe(403);
    }
    const release = (await t.db.query<{ id: number }>(`SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.slug = 'balena_os/raspberrypi3' LIMIT 1`)).rows[0]!.id;
    expect((await withdraw(release, null)).statusCode).toBe(401);
    expect((await withdraw(release, user.token)).statusCode).toBe(403);
    expect((await withdraw(release, supportToken)).statusCode).toBe(403);
    // balena-sdk as a signed-in user cannot write the catalogue through the data API either.
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(user.token);
    await sdk.pine.patch({ resource: 'release', id: release, body: { is_invalidated: true } });
    expect(await catalogueRows()).toEqual(before);
  });
});

describe('withdrawing and the seed at start', () => {
  it('withdraws a published release: no longer offered, and no device may be given it', async () => {
    const res = await publish({ deviceType: 'raspberrypi3', version: '6.2.1', variant: 'prod' });
    const { id } = res.json();
    expect(await versionsOf('raspberrypi3')).toContain('6.2.1+rev0.prod');
    const w = await withdraw(id);
    expect([w.statusCode, w.json()]).toEqual([200, { id, raw_version: '6.2.1+rev0.prod', is_invalidated: true }]);
    expect(await versionsOf('raspberrypi3')).not.toContain('6.2.1+rev0.prod');
    expect(await versionsOf('raspberrypi3')).toContain('6.2.0+rev0.prod');
    const again = await withdraw(id);
    expect([again.statusCode, again.json()]).toEqual([400, 'This OS release is already withdrawn']);
    // Re-publishing the same version and variant is refused: it exists (withdrawn).
    expect((await publish({ deviceType: 'raspberrypi3', version: '6.2.1', variant: 'prod' })).json()).toBe(OS_PUBLISH_MESSAGES.exists);

    const fleet = await insertFleet(t.db, user, `Pi${randomBytes(3).toString('hex')}`);
    const device = await insertDevice(t.db, fleet);
    const patch = await t.app.inject({ method: 'PATCH', url: `/v7/device(${device.id})`, headers: bearer(user.token), payload: { should_be_operated_by__release: id } });
    expect([patch.statusCode, patch.json()]).toEqual([400, 'OS version not supported for device type']);
  });

  it('withdraws a seeded release too, and refuses releases outside the host OS catalogue with 404', async () => {
    const seeded = (await t.db.query<{ id: number }>(`SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.slug = 'balena_os/intel-nuc' AND r.raw_version = '5.0.0+rev0.dev'`)).rows[0]!.id;
    expect((await withdraw(seeded)).statusCode).toBe(200);
    expect(await versionsOf('intel-nuc')).not.toContain('5.0.0+rev0.dev');
    const supervisor = (await t.db.query<{ id: number }>(`SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.slug = 'balena_os/amd64-supervisor' LIMIT 1`)).rows[0]!.id;
    const fleet = await insertFleet(t.db, user, `Own${randomBytes(3).toString('hex')}`);
    const own = (await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', '{}') RETURNING id`, [fleet, randomBytes(16).toString('hex')])).rows[0]!.id;
    for (const id of [supervisor, own, 999_999_999]) {
      const res = await withdraw(id);
      expect([res.statusCode, res.json()], String(id)).toEqual([404, 'OS release not found']);
    }
    expect((await t.db.query('SELECT is_invalidated FROM release WHERE id = ANY($1)', [[supervisor, own]])).rows).toEqual([{ is_invalidated: false }, { is_invalidated: false }]);
  });

  it('keeps published and withdrawn releases across the seed at start, without duplicating them', async () => {
    const before = await catalogueRows();
    await seedReferenceData(t.db);
    await seedReferenceData(t.db);
    expect(await catalogueRows()).toEqual(before);
    const versions = await versionsOf('raspberrypi3');
    expect(versions).toContain('6.2.0+rev0.prod');
    expect(versions).toContain('2026.1.0+rev1.dev');
    expect(versions).not.toContain('6.2.1+rev0.prod');
    expect(await versionsOf('intel-nuc')).not.toContain('5.0.0+rev0.dev');
    const published = (await osVersions('raspberrypi3')).find((v) => v.raw_version === '6.2.0+rev0.prod');
    expect(published).toMatchObject({ line: 'next', known_issue_list: 'Slow boot on some cards.' });
  });
});
