import { classifyOsUpdate, DEVICE_TYPES, isOsUpdateAllowed } from '@flotilla/model';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, insertFleet, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { insertDevice, type TestDevice } from '../../../test/support/cloud-link.js';

/*
 * Issue 17: the public host OS and supervisor catalogue read by the published balena-sdk as
 * balena's dashboard and CLI read it, and a device's OS and supervisor release writes held to
 * the catalogue and to the update rules of spec 2 §4.
 */
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let other: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let anonymous: ReturnType<typeof sdkClient>;

const catalogueRelease = async (fleetSlug: string, rawVersion: string) =>
  (
    await t.db.query<{ id: number }>('SELECT r.id FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE a.slug = $1 AND r.raw_version = $2', [
      fleetSlug,
      rawVersion,
    ])
  ).rows[0]!.id;
const deviceTypeId = async (slug: string) => (await t.db.query<{ id: number }>('SELECT id FROM device_type WHERE slug = $1', [slug])).rows[0]!.id;
const releaseOf = async (fleet: number, commit = randomBytes(16).toString('hex')) =>
  (
    await t.db.query<{ id: number }>(`INSERT INTO release (belongs_to__application, commit, status, composition, semver) VALUES ($1, $2, 'success', '{}', '9.9.9') RETURNING id`, [
      fleet,
      commit,
    ])
  ).rows[0]!.id;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, other] = await Promise.all([signUp(t.app), signUp(t.app)]);
  sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  anonymous = sdkClient(apiUrl);
});
afterAll(() => t?.close());

describe('the OS catalogue through balena-sdk', () => {
  it('lists the OS versions of a device type, signed in or not, with variants, lines, ESR type, base versions and known issues', async () => {
    for (const client of [anonymous, sdk]) {
      const versions = await client.models.os.getAvailableOsVersions('raspberrypi3');
      const byVersion = new Map(versions.map((v) => [v.raw_version, v]));
      expect(byVersion.get('6.0.10+rev0.prod')).toMatchObject({ variant: 'prod', osType: 'default', line: 'current', strippedVersion: '6.0.10+rev0', basedOnVersion: '6.0.10' });
      expect(byVersion.get('6.0.10+rev0.dev')).toMatchObject({ variant: 'dev', line: 'current' });
      expect(byVersion.get('6.1.0+rev0.prod')?.line).toBe('next');
      expect(byVersion.get('5.0.0+rev0.prod')).toMatchObject({ line: 'sunset', known_issue_list: expect.stringContaining('Wi-Fi') });
      expect(byVersion.get('2.113.18+rev0.prod')?.line).toBe('outdated');
      expect(byVersion.get('2.83.18+rev1.prod')?.strippedVersion).toBe('2.83.18+rev1');
      expect(byVersion.get('2025.7.0+rev0.prod')).toMatchObject({ osType: 'esr', line: 'current', basedOnVersion: '6.0.10' });
      expect(byVersion.get('2024.10.1+rev0.prod')).toMatchObject({ osType: 'esr', line: 'sunset', basedOnVersion: '5.3.21' });
      expect(byVersion.get('2024.7.0+rev0.prod')).toMatchObject({ osType: 'esr', line: 'outdated' });
      expect(versions).toHaveLength(22);
    }
  });

  it('lists OS versions for every device type of the catalogue', async () => {
    const all = await anonymous.models.os.getAvailableOsVersions(DEVICE_TYPES.map((d) => d.slug));
    for (const dt of DEVICE_TYPES) expect(all[dt.slug]?.some((v) => v.raw_version === '6.0.10+rev0.prod'), dt.slug).toBe(true);
  });

  it('answers getSupportedOsUpdateVersions as the model classifies the same targets', async () => {
    const supported = await sdk.models.os.getSupportedOsUpdateVersions('raspberrypi3', '5.3.21+rev0.prod');
    expect(supported.current).toBe('5.3.21+rev0.prod');
    expect([...supported.versions].sort()).toEqual(['2025.7.0+rev0.prod', '6.0.10+rev0.prod', '6.1.0+rev0.prod']);
    const defaultOnly = await sdk.models.os.getSupportedOsUpdateVersions('raspberrypi3', '5.3.21+rev0.prod', { osType: 'default' });
    expect(defaultOnly.recommended).toBe('6.1.0+rev0.prod');
    // The model, given the same catalogue, allows exactly these.
    const available = await sdk.models.os.getAvailableOsVersions('raspberrypi3');
    const device = { deviceType: 'raspberrypi3', isOnline: true, osVersion: 'balenaOS 5.3.21', osVariant: 'prod' };
    const allowed = available.filter((v) => isOsUpdateAllowed(classifyOsUpdate(device, v.raw_version, available))).map((v) => v.raw_version);
    expect(allowed.sort()).toEqual([...supported.versions].sort());
    // An ESR device is offered only newer ESR versions.
    const esr = await sdk.models.os.getSupportedOsUpdateVersions('raspberrypi3', '2024.10.1+rev0.prod');
    expect(esr.versions).toEqual(['2025.7.0+rev0.prod']);
  });

  it('answers getMaxSatisfyingVersion from the catalogue', async () => {
    expect(await anonymous.models.os.getMaxSatisfyingVersion('raspberrypi3', '^5.0.0', 'default')).toMatch(/^5\.3\.21\+rev0\.(prod|dev)$/);
    expect(await anonymous.models.os.getMaxSatisfyingVersion('raspberrypi3', 'latest', 'esr')).toMatch(/^2025\.7\.0\+rev0\./);
    expect(await anonymous.models.os.getMaxSatisfyingVersion('intel-nuc', '~2.83.0', 'default')).toMatch(/^2\.83\.18\+rev1\./);
    expect(await anonymous.models.os.getMaxSatisfyingVersion('raspberrypi3', '^9.0.0')).toBeNull();
  });

  it('lists as supported every device type with host OS releases but the discontinued one, whose host fleet is archived', async () => {
    const supported = (await anonymous.models.deviceType.getAllSupported({ $select: 'slug' })).map((d) => d.slug).sort();
    expect(supported).toEqual(DEVICE_TYPES.filter((d) => d.state !== 'discontinued').map((d) => d.slug).sort());
  });

  it('lists the supervisor releases of a CPU architecture, newest first', async () => {
    const releases = await anonymous.models.os.getSupervisorReleasesForCpuArchitecture('aarch64');
    expect(releases.map((r) => r.raw_version)).toEqual(['17.0.2', '16.4.6', '14.11.14', '14.0.0']);
  });

  it("keeps the catalogue out of a user's fleets and organizations, and read-only", async () => {
    const mine = await sdk.models.application.create({ name: 'MyFleet', organization: owner.username, deviceType: 'raspberrypi3' });
    const direct = await sdk.models.application.getAllDirectlyAccessible({ $select: ['id', 'slug'] });
    expect(direct.map((a) => a.id)).toEqual([mine.id]);
    expect((await sdk.models.organization.getAll({ $select: 'handle' })).map((o) => o.handle)).toEqual([owner.username]);
    const host = (await sdk.models.application.get('balena_os/raspberrypi3', { $select: ['id', 'is_host', 'is_public', 'is_of__class'] }));
    expect(host).toMatchObject({ is_host: true, is_public: true, is_of__class: 'app' });
    const release = await catalogueRelease('balena_os/raspberrypi3', '6.0.10+rev0.prod');
    const patchApp = await t.app.inject({ method: 'PATCH', url: `/v7/application(${host.id})`, headers: bearer(owner.token), payload: { app_name: 'mine' } });
    const patchRelease = await t.app.inject({ method: 'PATCH', url: `/v7/release(${release})`, headers: bearer(owner.token), payload: { is_invalidated: true } });
    // The engine answers a write to a row the caller may read but not update as a no-op (balena's dialect): nothing changes.
    expect([patchApp.statusCode, patchRelease.statusCode]).toEqual([200, 200]);
    const after = await t.db.query('SELECT a.app_name, r.is_invalidated FROM release r JOIN application a ON a.id = r.belongs_to__application WHERE r.id = $1', [release]);
    expect(after.rows).toEqual([{ app_name: 'raspberrypi3', is_invalidated: false }]);
  });
});

describe("a device's host OS and supervisor release writes", () => {
  let fleet: number;
  let device: TestDevice;
  const setVersions = (os: string | null, supervisor: string | null) =>
    t.db.query(`UPDATE device SET os_version = $2, os_variant = 'prod', supervisor_version = $3, is_online = true WHERE id = $1`, [device.id, os, supervisor]);
  const releases = async () =>
    (await t.db.query<{ host: number | null; supervisor: number | null }>('SELECT should_be_operated_by__release AS host, should_be_managed_by__release AS supervisor FROM device WHERE id = $1', [device.id])).rows[0]!;
  const patch = (body: object) => t.app.inject({ method: 'PATCH', url: `/v7/device(${device.id})`, headers: bearer(owner.token), payload: body });

  beforeAll(async () => {
    fleet = await insertFleet(t.db, owner, `Pi3Fleet${randomBytes(3).toString('hex')}`);
    device = await insertDevice(t.db, fleet);
    await setVersions('balenaOS 5.3.21', '14.0.0');
  });

  it('refuses releases that are not of the catalogue fleet for the device, with the message, changing nothing', async () => {
    const ownApp = await insertFleet(t.db, owner, `OwnApp${randomBytes(3).toString('hex')}`, { is_of__class: 'app' });
    const ownAppRelease = await releaseOf(ownApp);
    const nucOs = await catalogueRelease('balena_os/intel-nuc', '6.0.10+rev0.prod');
    const amd64Supervisor = await catalogueRelease('balena_os/amd64-supervisor', '17.0.2');
    const invalidated = await catalogueRelease('balena_os/raspberrypi3', '6.1.0+rev0.dev');
    await t.db.query('UPDATE release SET is_invalidated = true WHERE id = $1', [invalidated]);
    const before = await releases();
    for (const [field, value, message] of [
      ['should_be_operated_by__release', ownAppRelease, 'OS version not supported for device type'],
      ['should_be_operated_by__release', nucOs, 'OS version not supported for device type'],
      ['should_be_operated_by__release', invalidated, 'OS version not supported for device type'],
      ['should_be_managed_by__release', ownAppRelease, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
      ['should_be_managed_by__release', amd64Supervisor, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
    ] as const) {
      const res = await patch({ [field]: value });
      expect(res.statusCode, `${field} ${value} ${res.body}`).toBe(400);
      expect(res.json()).toBe(message);
    }
    await t.db.query('UPDATE release SET is_invalidated = false WHERE id = $1', [invalidated]);
    expect(await releases()).toEqual(before);
  });

  it("refuses another organization's private release as any non-catalogue release, the same as a release that does not exist", async () => {
    const theirs = await insertFleet(t.db, other, `Private${randomBytes(3).toString('hex')}`);
    const secret = await releaseOf(theirs);
    const missing = (await t.db.query<{ id: number }>('SELECT coalesce(max(id), 0) + 1000 AS id FROM release')).rows[0]!.id;
    const before = await releases();
    for (const [field, message] of [
      ['should_be_operated_by__release', 'OS version not supported for device type'],
      ['should_be_managed_by__release', "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
    ] as const) {
      const answers = [];
      for (const value of [secret, missing]) {
        for (const url of [`/v7/device(${device.id})`, `/v7/device?$filter=id eq ${device.id}`]) {
          const res = await t.app.inject({ method: 'PATCH', url, headers: bearer(owner.token), payload: { [field]: value } });
          answers.push(`${res.statusCode} ${res.body}`);
        }
      }
      expect(new Set(answers), field).toEqual(new Set([`400 ${JSON.stringify(message)}`]));
      // Through balena-sdk as well (its pin helper names the release by id).
      await expect(sdk.pine.patch({ resource: 'device', id: device.id, body: { [field]: secret } })).rejects.toThrow(message);
    }
    expect(await releases()).toEqual(before);
  });

  it('refuses OS downgrades and ESR switches the rules forbid', async () => {
    const cases: [string, string, string][] = [
      ['balenaOS 6.0.10', '5.3.21+rev0.prod', 'OS downgrades are not allowed'],
      ['balenaOS 2024.10.1', '6.1.0+rev0.prod', 'A device on an ESR line cannot switch to a non-ESR OS'],
      ['balenaOS 6.0.10', '2025.7.0+rev0.prod', 'This ESR version is based on an OS older than the one the device runs: switching to it would be a downgrade'],
    ];
    for (const [os, target, message] of cases) {
      await setVersions(os, '14.0.0');
      const fleetSlug = target.startsWith('20') ? 'balena_os/raspberrypi3-esr' : 'balena_os/raspberrypi3';
      const res = await patch({ should_be_operated_by__release: await catalogueRelease(fleetSlug, target) });
      expect(res.statusCode, `${os} → ${target}`).toBe(400);
      expect(res.json()).toBe(message);
    }
    expect((await releases()).host).toBeNull();
  });

  it('refuses supervisor releases the supervisor rules forbid', async () => {
    const cases: [string, string, string, string][] = [
      ['balenaOS 6.0.10', '17.0.2', '17.0.2', 'already running this version'],
      ['balenaOS 6.0.10', '17.0.2', '16.4.6', 'The supervisor can only be updated to a newer version'],
      ['balenaOS 2024.10.1', '14.0.0', '17.0.2', 'Cannot update ESR supervisor'],
      ['Resin OS 2.3.0+rev1', '6.0.0', '17.0.2', 'update not supported for type version'],
    ];
    for (const [os, current, target, message] of cases) {
      await setVersions(os, current);
      const res = await patch({ should_be_managed_by__release: await catalogueRelease('balena_os/armv7hf-supervisor', target) });
      expect(res.statusCode, `${current} → ${target}`).toBe(400);
      expect(res.json()).toBe(message);
    }
    expect((await releases()).supervisor).toBeNull();
  });

  it('takes a valid OS release and, through balena-sdk, a newer supervisor; the target state carries no user data from them', async () => {
    await setVersions('balenaOS 5.3.21', '14.0.0');
    const host = await catalogueRelease('balena_os/raspberrypi3', '6.0.10+rev0.prod');
    expect((await patch({ should_be_operated_by__release: host })).statusCode).toBe(200);
    await sdk.models.device.pinToSupervisorRelease(device.uuid, '17.0.2');
    const supervisor = await catalogueRelease('balena_os/armv7hf-supervisor', '17.0.2');
    expect(await releases()).toEqual({ host, supervisor });
    const state = await t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: bearer(device.key) });
    expect(state.statusCode, state.body).toBe(200);
    const apps = state.json()[device.uuid].apps as Record<string, { name?: string; is_host?: boolean; releases?: Record<string, { services?: Record<string, unknown> }> }>;
    const hostUuid = (await t.db.query<{ uuid: string }>(`SELECT uuid FROM application WHERE slug = 'balena_os/raspberrypi3'`)).rows[0]!.uuid;
    expect(apps[hostUuid]).toBeDefined();
    for (const release of Object.values(apps[hostUuid]!.releases ?? {})) expect(Object.keys(release.services ?? {})).toEqual([]);
    expect(JSON.stringify(state.json())).not.toContain(owner.username);
  });

  it('applies the rules to balena-sdk pinToSupervisorRelease too', async () => {
    await setVersions('balenaOS 6.0.10', '17.0.2');
    await expect(sdk.models.device.pinToSupervisorRelease(device.uuid, '16.4.6')).rejects.toThrow('The supervisor can only be updated to a newer version');
    await expect(sdk.models.device.pinToSupervisorRelease(device.uuid, '17.0.2')).rejects.toThrow('already running this version');
  });

  it("refuses a radxa-zero device the Raspberry Pi 3's OS release", async () => {
    const radxaFleet = await insertFleet(t.db, owner, `Radxa${randomBytes(3).toString('hex')}`, { is_for__device_type: await deviceTypeId('radxa-zero') });
    const radxa = await insertDevice(t.db, radxaFleet);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/v7/device(${radxa.id})`,
      headers: bearer(owner.token),
      payload: { should_be_operated_by__release: await catalogueRelease('balena_os/raspberrypi3', '6.0.10+rev0.prod') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe('OS version not supported for device type');
  });
});
