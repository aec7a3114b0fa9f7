import { DEVICE_FROZEN_MESSAGE, FREE_DEVICE_ALLOWANCE } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../../test/harness.js';
import { subscribe } from '../../../../test/support/billing-catalogue.js';
import { createFleet, deviceTypeId, hex, insertDevice, insertRelease, row } from '../../../../test/support/fleet-helpers.js';
import { insertInvoice } from './invoice.repository.js';
import { recomputePastDue } from './index.js';

/*
 * Issue 18: `device.is_frozen` (balena v7), computed: the organization is frozen, or the
 * device is beyond the free allowance on the free plan (oldest devices first). Read and
 * filtered through /v7 with balena-sdk, never written; a frozen device's target state holds
 * the release it runs. Real PostgreSQL, the real balena-sdk over HTTP, billing on.
 */

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let stranger: SignedUpUser;
let fleet: number;
let older: number[] = []; // FREE_DEVICE_ALLOWANCE devices created before `device`
let device: { id: number; uuid: string; api_key: string };
let r1: { id: number; commit: string };
let r2: { id: number; commit: string };

async function sdkAs(user: SignedUpUser) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}

const frozenIds = async (u: SignedUpUser) =>
  (await (await sdkAs(u)).pine.get({ resource: 'device', options: { $select: ['id', 'is_frozen'], $filter: { is_frozen: true, belongs_to__application: fleet } } })).map((d) => d.id);

/** The release commits in the device's v3 target state. */
async function targetCommits(): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: bearer(device.api_key) });
  expect(res.statusCode, res.body).toBe(200);
  const apps = res.json<Record<string, { apps: Record<string, { releases?: Record<string, unknown> }> }>>()[device.uuid]!.apps;
  return Object.values(apps).flatMap((a) => Object.keys(a.releases ?? {}));
}

beforeAll(async () => {
  t = await buildTestApp({ billing: { enabled: true } });
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, stranger] = await Promise.all([signUp(t.app), signUp(t.app)]);
  fleet = await createFleet(t.app, t.db, owner, `Allowance${hex(3)}`);
  const sdk = await sdkAs(owner);
  const prov = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleet, keyExpiryDate: new Date(Date.now() + DAY).toISOString() });
  const uuid = hex();
  const reg = await t.app.inject({ method: 'POST', url: '/device/register', headers: bearer(prov), payload: { application: fleet, uuid, device_type: 'raspberrypi3' } });
  expect(reg.statusCode, reg.body).toBe(201);
  device = { ...reg.json<{ id: number; api_key: string }>(), uuid };
  // Devices that arrived while the organization was on a bigger plan: older than `device`.
  const rpi = await deviceTypeId(t.db, 'raspberrypi3');
  for (let i = 0; i < FREE_DEVICE_ALLOWANCE; i++) older.push(await insertDevice(t.db, fleet, rpi, { created_at: new Date(Date.now() - (100 - i) * DAY) }));
  const c1 = hex();
  const c2 = hex();
  r1 = { id: await insertRelease(t.db, fleet, 'success', c1), commit: c1 };
  r2 = { id: await insertRelease(t.db, fleet, 'success', c2), commit: c2 };
  await t.db.query('UPDATE device SET is_running__release = $2 WHERE id = $1', [device.id, r1.id]);
  const target = await t.app.inject({ method: 'PATCH', url: `/v7/application(${fleet})`, headers: bearer(owner.token), payload: { should_be_running__release: r2.id } });
  expect(target.statusCode, target.body).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

describe('device.is_frozen', () => {
  it('is true beyond the free allowance on the free plan (the newest devices), readable and filterable with balena-sdk; the target state holds the running release', async () => {
    expect(await frozenIds(owner)).toEqual([device.id]);
    const one = await (await sdkAs(owner)).pine.get({ resource: 'device', id: older[0]!, options: { $select: ['is_frozen'] } });
    expect(one).toEqual({ is_frozen: false });
    const all = await (await sdkAs(owner)).models.device.getAllByApplication(fleet, { $select: ['id', 'is_frozen'] });
    expect(all.filter((d) => d.is_frozen).map((d) => d.id)).toEqual([device.id]);
    expect(all).toHaveLength(FREE_DEVICE_ALLOWANCE + 1);
    // Frozen: no new release, it keeps the one it runs.
    expect(await targetCommits()).toEqual([r1.commit]);
    // "What does this device get?" says the same as its target state (one builder).
    const effective = await t.app.inject({ method: 'GET', url: `/device/${device.uuid}/effective-variables`, headers: bearer(owner.token) });
    expect(effective.statusCode, effective.body).toBe(200);
    expect(effective.json<{ release: { commit: string } | null }>().release?.commit).toBe(r1.commit);
  });

  it('refuses actions on a device frozen by the free allowance (402, the frozen-devices wording); its unfrozen neighbours get the usual answers', async () => {
    const diag = (uuid: string) => t.app.inject({ method: 'POST', url: `/actions/v1/${uuid}/checks`, headers: { ...bearer(owner.token), 'content-type': 'application/json' }, payload: '{}' });
    const frozen = await diag(device.uuid);
    expect(frozen.statusCode, frozen.body).toBe(402);
    expect(frozen.json()).toBe(DEVICE_FROZEN_MESSAGE);
    await expect((await sdkAs(owner)).models.device.generateDeviceKey(device.uuid)).rejects.toThrow(DEVICE_FROZEN_MESSAGE);
    const olderUuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [older[0]!]))!.uuid;
    expect((await diag(olderUuid)).statusCode).toBe(400); // not frozen: offline
    // A stranger learns nothing.
    expect((await t.app.inject({ method: 'POST', url: `/actions/v1/${device.uuid}/checks`, headers: { ...bearer(stranger.token), 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(404);
  });

  it('leaves a device frozen by the free allowance out of a fleet restart: it answers 402 in the list and is not asked', async () => {
    await t.db.query('UPDATE device SET is_online = true WHERE id = $1', [device.id]);
    try {
      const res = await t.app.inject({ method: 'POST', url: `/application/${fleet}/restart`, headers: bearer(owner.token) });
      expect(res.statusCode, res.body).toBe(207);
      expect(res.json()).toEqual([expect.objectContaining({ deviceId: device.id, status: 402, body: DEVICE_FROZEN_MESSAGE })]);
    } finally {
      await t.db.query('UPDATE device SET is_online = false WHERE id = $1', [device.id]);
    }
  });

  it('is never written (400), and another organization’s user sees none of it', async () => {
    const patch = await t.app.inject({ method: 'PATCH', url: `/v7/device(${device.id})`, headers: bearer(owner.token), payload: { is_frozen: false } });
    expect(patch.statusCode).toBe(400);
    await expect((await sdkAs(owner)).pine.patch({ resource: 'device', id: older[0]!, body: { is_frozen: true } as never })).rejects.toMatchObject({ statusCode: 400 });
    expect(await frozenIds(stranger)).toEqual([]);
    const byId = await t.app.inject({ method: 'GET', url: `/v7/device(${device.id})?$select=is_frozen`, headers: bearer(stranger.token) });
    expect(byId.json()).toEqual({ d: [] });
  });

  it('unfreezes when a device is removed (the target state follows at once), freezes every device of a frozen organization, and nothing on a paid plan', async () => {
    const del = await t.app.inject({ method: 'DELETE', url: `/v7/device(${older[0]!})`, headers: bearer(owner.token) });
    expect(del.statusCode, del.body).toBe(200);
    older = older.slice(1);
    expect(await frozenIds(owner)).toEqual([]);
    expect(await targetCommits()).toEqual([r2.commit]);

    // Frozen organization (an invoice 61 days past due): every device, and the target state holds again.
    const inv = await insertInvoice(t.db, { organization: owner.orgId, kind: 'fee', state: 'open', lines: [{ code: 'fee', description: 'Fee', quantity: 1, unitCostCents: 100 }], issuedAt: new Date(Date.now() - 91 * DAY), dueOn: new Date(Date.now() - 61 * DAY) });
    await recomputePastDue(t.app, t.db, [owner.orgId]);
    expect(await row(t.db, 'SELECT is_frozen FROM organization WHERE id = $1', [owner.orgId])).toEqual({ is_frozen: true });
    expect((await frozenIds(owner)).sort()).toEqual([...older, device.id].sort());
    expect(await targetCommits()).toEqual([r1.commit]);
    // The device's own state report still works.
    const report = await t.app.inject({ method: 'PATCH', url: '/device/v3/state', headers: bearer(device.api_key), payload: { [device.uuid]: { status: 'Idle' } } });
    expect(report.statusCode, report.body).toBe(200);

    // Paid: unfrozen at once.
    await t.db.query("UPDATE invoice SET state = 'paid' WHERE id = $1", [inv.id]);
    await recomputePastDue(t.app, t.db, [owner.orgId]);
    expect(await frozenIds(owner)).toEqual([]);
    expect(await targetCommits()).toEqual([r2.commit]);

    // A paid plan freezes nothing beyond the allowance.
    await insertDevice(t.db, fleet, await deviceTypeId(t.db, 'raspberrypi3'));
    expect(await frozenIds(owner)).toHaveLength(1);
    await subscribe(t.db, owner.orgId, 'pilot-v2');
    expect(await frozenIds(owner)).toEqual([]);
  });
});
