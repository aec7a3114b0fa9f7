import { ROLES, type DeviceOperation } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, insertDevice } from '../../../test/support/fleet-helpers.js';
import type { Actor } from '../../infra/http/actor.js';
import { deviceOperationAllowed } from './index.js';

// Issue 15: the live-operation rights of spec 2 §6 (terminal, host terminal, diagnostics,
// clearing logs), decided by the model's `resin.device.<operation>` rules on the device row.
let t: TestApp;
let owner: SignedUpUser;
let stranger: SignedUpUser;
const byRole: Record<string, SignedUpUser> = {};
let deviceId: number;
let strangersDevice: number;

const asActor = (u: SignedUpUser): Actor => ({ actorId: u.actorId, kind: 'user', userId: u.userId, permissions: ROLES['default-user'] });
const OPERATIONS: DeviceOperation[] = ['ssh', 'ssh-host', 'access_diagnostics', 'delete_logs'];

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
  const fleet = await createFleet(t.app, t.db, owner, 'ops-fleet');
  const dt = await deviceTypeId(t.db, 'raspberrypi3');
  deviceId = await insertDevice(t.db, fleet, dt);
  strangersDevice = await insertDevice(t.db, await createFleet(t.app, t.db, stranger, 'other-fleet'), dt);
  for (const role of ['observer', 'operator', 'developer', 'administrator'] as const) {
    byRole[role] = await signUp(t.app);
    await giveFleetRole(t.db, owner.orgId, fleet, byRole[role]!, role);
  }
});
afterAll(async () => {
  await t.close();
});

async function allowed(u: SignedUpUser, device = deviceId): Promise<DeviceOperation[]> {
  const out: DeviceOperation[] = [];
  for (const op of OPERATIONS) if (await deviceOperationAllowed(t.db, asActor(u), device, op)) out.push(op);
  return out;
}

describe('device operation rights (spec 2 §6)', () => {
  it('follow the fleet role: operators open terminals and diagnostics, developers also clear logs', async () => {
    expect(await allowed(byRole.observer!)).toEqual([]);
    expect(await allowed(byRole.operator!)).toEqual(['ssh', 'ssh-host', 'access_diagnostics']);
    expect(await allowed(byRole.developer!)).toEqual(OPERATIONS);
    expect(await allowed(byRole.administrator!)).toEqual(OPERATIONS);
  });

  it('the organization administrator holds them all', async () => {
    expect(await allowed(owner)).toEqual(OPERATIONS);
  });

  it('a user of another organization holds none, and neither do devices or anonymous callers', async () => {
    expect(await allowed(stranger)).toEqual([]);
    expect(await allowed(owner, strangersDevice)).toEqual([]);
    expect(await deviceOperationAllowed(t.db, null, deviceId, 'ssh')).toBe(false);
    expect(await deviceOperationAllowed(t.db, { actorId: 1, kind: 'device', deviceId, permissions: ROLES.device }, deviceId, 'ssh')).toBe(false);
  });

  it('an unknown device is not allowed', async () => {
    expect(await deviceOperationAllowed(t.db, asActor(owner), 2_000_000_000, 'ssh')).toBe(false);
  });
});
