import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { bearer, buildTestApp, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, giveFleetRole, insertDevice, row } from '../../../test/support/fleet-helpers.js';

// Issue 15 item 2: the terminal audit trail as the read-only data-API resource
// `terminal_session` — fleet (and organization) administrators read it, nobody else, and
// nobody writes it through /v7; rows a dead server process left open are closed by the sweep.
let t: TestApp;
let owner: SignedUpUser;
let stranger: SignedUpUser;
const byRole: Record<string, SignedUpUser> = {};
let deviceId: number;
let deviceUuid: string;

async function insertSession(extra: { seen_at?: string; ended?: boolean } = {}): Promise<string> {
  const session = randomUUID();
  await t.db.query(
    `INSERT INTO terminal_session (session, device, "user", username, target, server_instance, started_at, seen_at, ended_at, end_reason)
     VALUES ($1, $2, $3, $4, 'service:main', 'gone', now() - interval '20 minutes', ${extra.seen_at ?? 'now()'}, ${extra.ended ? 'now()' : 'NULL'}, ${extra.ended ? "'the browser closed the terminal'" : 'NULL'})`,
    [session, deviceId, owner.userId, owner.username],
  );
  return session;
}

beforeAll(async () => {
  t = await buildTestApp();
  owner = await signUp(t.app);
  stranger = await signUp(t.app);
  const fleet = await createFleet(t.app, t.db, owner, 'audit-fleet');
  deviceId = await insertDevice(t.db, fleet, await deviceTypeId(t.db, 'raspberrypi3'));
  deviceUuid = (await row<{ uuid: string }>(t.db, 'SELECT uuid FROM device WHERE id = $1', [deviceId]))!.uuid;
  for (const role of ['observer', 'operator', 'developer', 'administrator'] as const) {
    byRole[role] = await signUp(t.app);
    await giveFleetRole(t.db, owner.orgId, fleet, byRole[role]!, role);
  }
  await insertSession({ ended: true });
});

afterAll(async () => {
  await t?.close();
});

const read = async (u: SignedUpUser) => {
  const res = await t.app.inject({ url: `/v7/terminal_session?$filter=device/any(d:d/uuid eq '${deviceUuid}')&$select=username,target,started_at,ended_at,end_reason`, headers: bearer(u.token) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { d: Record<string, unknown>[] }).d;
};

describe('terminal_session (audit trail)', () => {
  it('is read by the organization administrator and fleet administrators, with who, target, start, end and reason', async () => {
    for (const u of [owner, byRole.administrator!]) {
      const rows = await read(u);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ username: owner.username, target: 'service:main', end_reason: 'the browser closed the terminal' });
      expect(typeof rows[0]!.started_at).toBe('string');
      expect(typeof rows[0]!.ended_at).toBe('string');
    }
  });

  it("balena-sdk pine.get reads it (the dashboard's audit view), newest first, with the device expanded", async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sdk = sdkClient(url);
    await sdk.auth.loginWithToken(owner.token);
    // Not in balena-sdk's typed model (a Flotilla resource): the untyped pine call.
    const pine = sdk.pine as unknown as { get(p: object): Promise<{ username: string; target: string; device: { uuid: string }[] }[]> };
    const rows = await pine.get({
      resource: 'terminal_session',
      options: { $select: ['username', 'target', 'started_at', 'ended_at', 'end_reason'], $expand: { device: { $select: 'uuid' } }, $orderby: { started_at: 'desc' } },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: owner.username, target: 'service:main', device: [{ uuid: deviceUuid }] });
  });

  it('is hidden from observers, operators, developers and other organizations, and never shows its bookkeeping', async () => {
    for (const u of [byRole.observer!, byRole.operator!, byRole.developer!, stranger]) expect(await read(u)).toEqual([]);
    const res = await t.app.inject({ url: '/v7/terminal_session?$select=server_instance', headers: bearer(owner.token) });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('cannot be written through the data API, not even by the owner', async () => {
    const before = (await t.db.query<{ id: number }>('SELECT * FROM terminal_session ORDER BY id')).rows;
    const id = before[0]!.id;
    const post = await t.app.inject({ method: 'POST', url: '/v7/terminal_session', headers: bearer(owner.token), payload: { device: deviceId, username: 'x', target: 'host', session: 'x' } });
    const patch = await t.app.inject({ method: 'PATCH', url: `/v7/terminal_session(${id})`, headers: bearer(owner.token), payload: { end_reason: 'forged' } });
    const del = await t.app.inject({ method: 'DELETE', url: `/v7/terminal_session(${id})`, headers: bearer(owner.token) });
    for (const res of [post, patch, del]) expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect((await t.db.query('SELECT * FROM terminal_session ORDER BY id')).rows).toEqual(before);
  });

  it('a row left open by a server process that stopped is closed by the sweep at startup; a live one is left alone', async () => {
    const stale = await insertSession({ seen_at: "now() - interval '10 minutes'" });
    const live = await insertSession();
    const other = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET });
    await other.close();
    const ended = async (s: string) => row<{ ended_at: Date | null; end_reason: string | null }>(t.db, 'SELECT ended_at, end_reason FROM terminal_session WHERE session = $1', [s]);
    expect(await ended(stale)).toMatchObject({ end_reason: 'the server relaying the session stopped' });
    expect((await ended(stale))!.ended_at).not.toBeNull();
    expect(await ended(live)).toMatchObject({ ended_at: null, end_reason: null });
  });
});
