import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Issue 12, item 9: overall_status and overall_progress follow balena's computed definition
// (open-balena-api's device model with the is_active case; balena-sdk 23's values) for every
// combination of activity, provisioning, connectivity and update state. Each row is written
// through balena-sdk by a fleet developer and read back with $select.
type Sdk = ReturnType<typeof sdkClient>;
let t: TestApp;
let dev: Sdk;
let deviceId: number;

const NEVER = null;
const ONCE = '2026-01-01T00:00:00.000Z';
/** Facts of a device that is active, connected, idle and provisioned. */
const BASE = {
  is_active: true,
  provisioning_state: '',
  provisioning_progress: null,
  is_online: true,
  api_heartbeat_state: 'online',
  last_connectivity_event: ONCE,
  status: 'Idle',
  download_progress: null,
  update_status: 'done',
};
type Facts = Partial<Omit<typeof BASE, 'provisioning_progress' | 'download_progress' | 'last_connectivity_event'>> & {
  provisioning_progress?: number | null;
  download_progress?: number | null;
  last_connectivity_event?: string | null;
};

// [facts, overall_status, overall_progress]
const TABLE: [string, Facts, string, number | null][] = [
  // activity comes first
  ['inactive, even while online and downloading', { is_active: false, status: 'Downloading', download_progress: 30 }, 'inactive', null],
  ['inactive and never connected', { is_active: false, is_online: false, api_heartbeat_state: 'unknown', last_connectivity_event: NEVER, provisioning_progress: 10 }, 'inactive', null],
  // then provisioning
  ['post-provisioning while online', { provisioning_state: 'Post-Provisioning', provisioning_progress: 80 }, 'post-provisioning', 80],
  ['post-provisioning while offline', { provisioning_state: 'Post-Provisioning', provisioning_progress: 90, is_online: false, api_heartbeat_state: 'offline' }, 'post-provisioning', 90],
  // a device that never connected
  ['never connected', { is_online: false, api_heartbeat_state: 'unknown', last_connectivity_event: NEVER }, 'configuring', null],
  ['never connected, provisioning', { is_online: false, api_heartbeat_state: 'unknown', last_connectivity_event: NEVER, provisioning_progress: 45 }, 'configuring', 45],
  ['no connectivity event but heartbeat offline', { is_online: false, api_heartbeat_state: 'offline', last_connectivity_event: NEVER }, 'disconnected', null],
  ['no connectivity event but cloud link up', { is_online: true, api_heartbeat_state: 'unknown', last_connectivity_event: NEVER }, 'reduced-functionality', null],
  // connectivity
  ['disconnected: link down, heartbeat offline', { is_online: false, api_heartbeat_state: 'offline' }, 'disconnected', null],
  ['disconnected: link down, heartbeat unknown', { is_online: false, api_heartbeat_state: 'unknown' }, 'disconnected', null],
  ['disconnected while downloading', { is_online: false, api_heartbeat_state: 'offline', status: 'Downloading', download_progress: 50 }, 'disconnected', null],
  ['reduced: link up, heartbeat timed out', { api_heartbeat_state: 'timeout' }, 'reduced-functionality', null],
  ['reduced: link up, heartbeat offline', { api_heartbeat_state: 'offline' }, 'reduced-functionality', null],
  ['reduced: link up, heartbeat unknown', { api_heartbeat_state: 'unknown' }, 'reduced-functionality', null],
  ['reduced: heartbeat online, link down', { is_online: false }, 'reduced-functionality', null],
  ['reduced while downloading', { is_online: false, status: 'Downloading', download_progress: 20 }, 'reduced-functionality', 20],
  ['link down, heartbeat timed out: not reduced (balena)', { is_online: false, api_heartbeat_state: 'timeout' }, 'operational', null],
  ['link down, heartbeat timed out, downloading', { is_online: false, api_heartbeat_state: 'timeout', status: 'Downloading', download_progress: 70 }, 'updating', 70],
  // update state
  ['updating: downloading with a progress', { status: 'Downloading', download_progress: 40, update_status: 'downloading' }, 'updating', 40],
  ['downloading without a progress', { status: 'Downloading', download_progress: null, update_status: 'downloading' }, 'operational', null],
  ['a progress while not downloading', { status: 'Idle', download_progress: 40 }, 'operational', null],
  ['applying changes', { status: 'Updating', update_status: 'applying changes' }, 'operational', null],
  ['connected with a provisioning progress', { provisioning_progress: 60 }, 'configuring', 60],
  ['downloading beats a provisioning progress', { provisioning_progress: 60, status: 'Downloading', download_progress: 15 }, 'updating', 15],
  ['operational', {}, 'operational', null],
];

beforeAll(async () => {
  t = await buildTestApp();
  const apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const owner: SignedUpUser = await signUp(t.app);
  const ownerSdk = sdkClient(apiUrl);
  await ownerSdk.auth.loginWithToken(owner.token);
  const appId = (await ownerSdk.models.application.create({ name: 'CompatStatus', deviceType: 'raspberrypi3', organization: owner.username })).id;
  const developer = await signUp(t.app);
  await addOrganizationMember(t.db, developer.userId, owner.orgId);
  const roleId = (await ownerSdk.pine.get({ resource: 'application_membership_role', id: { name: 'developer' }, options: { $select: 'id' } }))!.id;
  await ownerSdk.pine.post({ resource: 'user_application_membership', body: { user: developer.userId, is_member_of__application: appId, application_membership_role: roleId } });
  dev = sdkClient(apiUrl);
  await dev.auth.loginWithToken(developer.token);
  deviceId = (await ownerSdk.models.device.register(appId, ownerSdk.models.device.generateUniqueKey())).id;
});
afterAll(async () => {
  await t?.close();
});

describe("overall_status and overall_progress as balena computes them", () => {
  it.each(TABLE)('%s', async (_name, facts, status, progress) => {
    const { is_active, ...rest } = { ...BASE, ...facts };
    // Deactivating is a rule of its own (the device must be offline, and not inactive already).
    const current = await dev.models.device.get(deviceId, { $select: 'is_active' });
    if (current.is_active !== is_active) {
      if (!is_active) await dev.pine.patch({ resource: 'device', id: deviceId, body: { is_online: false } });
      await dev.pine.patch({ resource: 'device', id: deviceId, body: { is_active } });
    }
    // update_status and the heartbeat take the dialect's values; the table writes them as text.
    await dev.pine.patch({ resource: 'device', id: deviceId, body: rest as never });
    const read = await dev.models.device.get(deviceId, { $select: ['overall_status', 'overall_progress'] });
    expect(read).toEqual({ overall_status: status, overall_progress: progress });
    expect(await dev.models.device.getStatus(deviceId)).toBe(status);
    expect(await dev.models.device.getProgress(deviceId)).toBe(progress);
    // The fleet's per-status filter agrees.
    const counted = await dev.pine.get({ resource: 'device', options: { $count: { $filter: { id: deviceId, overall_status: status } } } });
    expect(counted).toBe(1);
  });

  it('only returns values of balena-sdk 23 DeviceOverallStatus', () => {
    const values = Object.values(dev.models.device.OverallStatus) as string[];
    for (const [, , status] of TABLE) expect(values).toContain(status);
  });
});
