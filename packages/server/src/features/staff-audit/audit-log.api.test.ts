import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, sdkClient, signInStaff, signUp, type SignedUpUser, type StaffUser, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, hex, insertDevice, requester } from '../../../test/support/fleet-helpers.js';
import { verifyExport } from '../../../../../scripts/verify-audit.mjs';
import { MASKED } from './audit-log.js';

// Issue 21 item 5: the audit log. Every write through /v7 (balena-sdk as the client) and every
// declared custom action lands in the organization's log in the write's transaction, with
// before/after of the changed fields; rows are hash-chained per organization, exported as
// NDJSON to its administrators only, and a row altered or removed in SQL is detected by the
// server's verification and by the offline verifier (scripts/verify-audit.mjs).

let t: TestApp;
let apiUrl: string;
let req: ReturnType<typeof requester>;
let customer: SignedUpUser; // administrator of their personal organization
let member: SignedUpUser; // a plain member of it
let otherAdmin: SignedUpUser; // administrator of another organization
let admin: StaffUser; // a platform administrator
let rpi3: number;

interface AuditRow {
  id: number;
  kind: string;
  method: string;
  route: string;
  resource: string | null;
  action: string | null;
  row_ids: string | null;
  performed_as_username: string;
  performed_by_username: string;
  staff_role: string | null;
  api_key: string | null;
  request_id: string;
  changes: Record<string, { before?: Record<string, unknown>; after?: Record<string, unknown> }> | null;
  prev_hash: string | null;
  hash: string;
}

const rowsSince = async (org: number, after: number) =>
  (await t.db.query<AuditRow>('SELECT * FROM audit_event WHERE organization = $1 AND id > $2 ORDER BY id', [org, after])).rows;
const lastId = async () => (await t.db.query<{ id: number | null }>('SELECT max(id) AS id FROM audit_event')).rows[0]!.id ?? 0;

async function sdkAs(token: string) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(token);
  return sdk;
}

const exportOf = (token: string, org: number, query = '') =>
  t.app.inject({ method: 'GET', url: `/audit/v1/organization/${org}/events.ndjson${query}`, headers: bearer(token) });
const verifyOf = (token: string, org: number) => t.app.inject({ method: 'GET', url: `/audit/v1/organization/${org}/verify`, headers: bearer(token) });

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  req = requester(t.app);
  [customer, member, otherAdmin] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  await addOrganizationMember(t.db, member.userId, customer.orgId, 'member');
  admin = await signInStaff(t.app, t.db, 'administrator');
  rpi3 = await deviceTypeId(t.db, 'raspberrypi3');
});
afterAll(async () => {
  await t?.close();
});

describe('writes through the data API', () => {
  it('are recorded with who, what, the changed fields before and after, and the request id', async () => {
    const fleet = await createFleet(t.app, t.db, customer, `Audit${hex(2)}`);
    const device = await insertDevice(t.db, fleet, rpi3);
    const uuid = (await t.db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [device])).rows[0]!.uuid;
    const start = await lastId();
    const sdk = await sdkAs(customer.token);
    await sdk.models.application.envVar.set(fleet, 'MODE', 'blue'); // POST
    await sdk.models.application.envVar.set(fleet, 'MODE', 'green'); // PATCH
    await sdk.models.device.rename(uuid, 'kitchen'); // PATCH of another kind
    await sdk.models.device.tags.set(uuid, 'site', 'north'); // POST of a third kind
    await sdk.models.application.envVar.set(fleet, 'DB_PASSWORD', 'hunter2'); // a secret-looking name
    await sdk.models.application.envVar.remove(fleet, 'MODE'); // DELETE

    const rows = await rowsSince(customer.orgId, start);
    expect(rows.map((r) => [r.kind, r.method, r.resource])).toEqual([
      ['write', 'POST', 'application_environment_variable'],
      ['write', 'PATCH', 'application_environment_variable'],
      ['write', 'PATCH', 'device'],
      ['write', 'POST', 'device_tag'],
      ['write', 'POST', 'application_environment_variable'],
      ['write', 'DELETE', 'application_environment_variable'],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ performed_as_username: customer.username, performed_by_username: customer.username, staff_role: null, action: null });
      expect(r.request_id).toMatch(/\S/);
    }
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(rows.length); // one request each
    const [created, patched, renamed, tagged, secret, deleted] = rows as [AuditRow, AuditRow, AuditRow, AuditRow, AuditRow, AuditRow];
    const varId = created.row_ids!;
    expect(created.changes![varId]!.before).toBeUndefined();
    expect(created.changes![varId]!.after).toMatchObject({ name: 'MODE', value: 'blue', application: fleet });
    // A PATCH keeps only what changed.
    expect(patched.changes).toEqual({ [varId]: { before: { value: 'blue' }, after: { value: 'green' } } });
    expect(renamed.row_ids).toBe(String(device));
    expect(renamed.changes![String(device)]!.before).toMatchObject({ device_name: expect.any(String) });
    expect(renamed.changes![String(device)]!.after).toMatchObject({ device_name: 'kitchen' });
    expect(tagged.changes![tagged.row_ids!]!.after).toMatchObject({ tag_key: 'site', value: 'north', device });
    // Secrets never reach the log.
    expect(secret.changes![secret.row_ids!]!.after).toMatchObject({ name: 'DB_PASSWORD', value: MASKED });
    expect(JSON.stringify(rows)).not.toContain('hunter2');
    expect(deleted.changes).toEqual({ [varId]: { before: expect.objectContaining({ name: 'MODE', value: 'green' }) } });
  });

  it('records the administrator as the actual user of a logged-in-as session, and the API key used', async () => {
    const fleet = await createFleet(t.app, t.db, customer, `AsUser${hex(2)}`);
    const loginAs = await t.app.inject({ method: 'PATCH', url: '/login_', headers: bearer(admin.token), payload: { username: customer.username } });
    expect(loginAs.statusCode, loginAs.body).toBe(200);
    const start = await lastId();
    await (await sdkAs(loginAs.body)).models.application.rename(fleet, `Renamed${hex(2)}`);
    const key = await (await sdkAs(customer.token)).models.apiKey.create({ name: 'ci-key', expiryDate: null });
    await (await sdkAs(key)).models.application.envVar.set(fleet, 'FROM_KEY', '1');
    const rows = (await rowsSince(customer.orgId, start)).filter((r) => r.kind === 'write'); // the SDK reads first: staff reads
    expect(rows.map((r) => [r.resource, r.performed_as_username, r.performed_by_username, r.staff_role])).toEqual([
      ['application', customer.username, admin.username, 'administrator'],
      ['application_environment_variable', customer.username, customer.username, null],
    ]);
    expect(rows[1]!.api_key).toMatch(/^#\d+ ci-key$/);
  });

  it('records nothing for a refused write, and one row per organization a write touches', async () => {
    const fleet = await createFleet(t.app, t.db, customer, `Refused${hex(2)}`);
    const start = await lastId();
    // A member may not rename the organization's fleet (no row they may update: nothing changes),
    // and a bad value is a 400.
    expect((await req(member.token, 'PATCH', `/v7/application(${fleet})`, { app_name: 'Nope' })).statusCode).toBe(200);
    expect((await t.db.query('SELECT 1 FROM application WHERE id = $1 AND app_name = $2', [fleet, 'Nope'])).rowCount).toBe(0);
    expect((await req(customer.token, 'POST', '/v7/application_environment_variable', { application: fleet, name: '1bad name', value: 'x' })).statusCode).toBe(400);
    // Another tenant naming this fleet: refused (401), nothing written, nothing logged.
    expect((await req(otherAdmin.token, 'POST', '/v7/application_environment_variable', { application: fleet, name: 'X', value: 'x' })).statusCode).toBe(401);
    expect(await rowsSince(customer.orgId, start)).toEqual([]);
    expect(await rowsSince(otherAdmin.orgId, start)).toEqual([]);
    // A PATCH by $filter over two fleets of one organization: one row naming both, each one's change.
    const second = await createFleet(t.app, t.db, customer, `Second${hex(2)}`);
    const both = await req(customer.token, 'PATCH', `/v7/application?$filter=id in (${fleet}, ${second})`, { is_public: true });
    expect(both.statusCode, both.body).toBe(200);
    const rows = await rowsSince(customer.orgId, start);
    expect(rows.map((r) => [r.kind, r.method, r.row_ids])).toEqual([
      ['write', 'POST', String(second)],
      ['write', 'PATCH', `${fleet},${second}`],
    ]);
    expect(rows[1]!.changes).toEqual({ [fleet]: { before: { is_public: false }, after: { is_public: true } }, [second]: { before: { is_public: false }, after: { is_public: true } } });
  });
});

describe('custom actions', () => {
  it('record a device action, an invitation accepted and an organization change, by route declaration', async () => {
    const fleet = await createFleet(t.app, t.db, customer, `Actions${hex(2)}`);
    const device = await insertDevice(t.db, fleet, rpi3);
    const uuid = (await t.db.query<{ uuid: string }>('SELECT uuid FROM device WHERE id = $1', [device])).rows[0]!.uuid;
    const start = await lastId();
    expect((await t.app.inject({ method: 'DELETE', url: `/device/v2/${uuid}/logs`, headers: bearer(customer.token) })).statusCode).toBeLessThan(300);
    expect((await t.app.inject({ method: 'DELETE', url: `/organization/${customer.orgId}/logo`, headers: bearer(customer.token) })).statusCode).toBe(204);
    // A fleet restart of a fleet without online devices is refused (404): no row.
    expect((await t.app.inject({ method: 'POST', url: `/application/${fleet}/restart`, headers: bearer(customer.token), payload: {} })).statusCode).toBe(404);
    // An invitation: created through /v7 (a write), accepted through its custom route (an action).
    const newbie = await signUp(t.app);
    const roles = (await req(customer.token, 'GET', `/v7/organization_membership_role?$select=id&$filter=name eq 'member'`)).json().d;
    const invite = await req(customer.token, 'POST', '/v7/invitee__is_invited_to__organization', {
      invitee: newbie.email,
      is_invited_to__organization: customer.orgId,
      organization_membership_role: roles[0].id,
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const mail = (await t.db.query<{ text_body: string }>(`SELECT text_body FROM email_outbox WHERE recipient = $1 AND text_body LIKE '%invitation/%' ORDER BY id DESC LIMIT 1`, [newbie.email])).rows[0]!;
    const token = /invitation\/([A-Za-z0-9_-]+)/.exec(mail.text_body)![1]!;
    expect((await req(newbie.token, 'POST', `/org/v1/invitation/${token}`)).statusCode).toBe(200);

    const rows = await rowsSince(customer.orgId, start);
    expect(rows.map((r) => [r.kind, r.action ?? r.resource, r.performed_as_username])).toEqual([
      ['action', 'device.logs.clear', customer.username],
      ['action', 'organization.logo.remove', customer.username],
      ['write', 'invitee__is_invited_to__organization', customer.username],
      ['action', 'invitation.accept', newbie.username],
    ]);
    expect(rows[0]).toMatchObject({ method: 'DELETE', route: '/device/v2/:uuid/logs', resource: 'device', row_ids: String(device) });
    // The invitation's token is a secret: its hash is masked in the write's row.
    expect(rows[2]!.changes![rows[2]!.row_ids!]!.after).toMatchObject({ token_hash: MASKED });
  });
});

describe('the hash chain, export and verification', () => {
  it('chains concurrent writes without a fork, exports NDJSON to the organization\'s administrators only, and detects a row altered or removed', async () => {
    const fleet = await createFleet(t.app, t.db, customer, `Chain${hex(2)}`);
    // Concurrent writes to one organization: the chain stays linear.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => req(customer.token, 'POST', '/v7/application_environment_variable', { application: fleet, name: `V${i}`, value: String(i) })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(results.map(() => 201));
    const ok = await verifyOf(customer.token, customer.orgId);
    expect(ok.statusCode, ok.body).toBe(200);
    const status = ok.json<{ rows: number; lastId: number; headHash: string; broken: unknown }>();
    expect(status.broken).toBeNull();
    const total = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_event WHERE organization = $1', [customer.orgId])).rows[0]!.n;
    expect(status.rows).toBe(total);

    // The export: every row, one JSON object a line with its hashes; the offline verifier agrees.
    const exported = await exportOf(customer.token, customer.orgId);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = exported.body.trim().split('\n').map((l) => JSON.parse(l) as AuditRow & { organization: number });
    expect(lines).toHaveLength(total);
    expect(lines.every((l) => l.organization === customer.orgId && /^[0-9a-f]{64}$/.test(l.hash))).toBe(true);
    expect(lines[0]!.prev_hash).toBeNull();
    expect(verifyExport(exported.body)).toMatchObject({ rows: total, lastId: status.lastId, headHash: status.headHash, broken: null });
    // Paged by id: two pages verify as one.
    const first = await exportOf(customer.token, customer.orgId, '?limit=5');
    const next = first.headers['x-next-after-id'];
    expect(next).toBe(String(lines[4]!.id));
    const rest = await exportOf(customer.token, customer.orgId, `?after_id=${next}`);
    expect(verifyExport(first.body + rest.body)).toMatchObject({ rows: total, broken: null });

    // Nobody else reads it: a member, another organization's administrator, a support agent.
    const agent = await signInStaff(t.app, t.db, 'support_agent');
    for (const who of [member.token, otherAdmin.token, agent.token]) {
      const e = await exportOf(who, customer.orgId);
      expect(e.statusCode).toBe(200);
      expect(e.body).toBe('');
      expect((await verifyOf(who, customer.orgId)).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/audit/v1/organization/${customer.orgId}/events.ndjson` })).statusCode).toBe(401);

    // Altering a past row's `changes` in SQL is detected at that row, by the server and offline.
    const victim = lines[Math.floor(lines.length / 2)]!;
    await t.db.query(`UPDATE audit_event SET changes = '{"0": {"after": {"value": "forged"}}}' WHERE id = $1`, [victim.id]);
    expect((await verifyOf(customer.token, customer.orgId)).json()).toMatchObject({ broken: { id: victim.id, reason: 'hash' } });
    expect(verifyExport((await exportOf(customer.token, customer.orgId)).body).broken).toMatchObject({ id: victim.id, reason: 'hash' });
    // Rewriting the row's hash as well does not help: the next row no longer links to it.
    await t.db.query('UPDATE audit_event e SET hash = audit_event_hash(e) WHERE id = $1', [victim.id]);
    const after = lines[lines.indexOf(victim) + 1]!;
    expect((await verifyOf(customer.token, customer.orgId)).json()).toMatchObject({ broken: { id: after.id, reason: 'link' } });
    expect(verifyExport((await exportOf(customer.token, customer.orgId)).body).broken).toMatchObject({ id: after.id, reason: 'link' });

    // Deleting a row in the middle of another organization's chain is detected at the row after it.
    for (let i = 0; i < 3; i++) await createFleet(t.app, t.db, otherAdmin, `Del${i}${hex(2)}`);
    const theirs = (await t.db.query<{ id: number }>('SELECT id FROM audit_event WHERE organization = $1 ORDER BY id', [otherAdmin.orgId])).rows;
    expect(theirs.length).toBeGreaterThanOrEqual(3);
    expect((await verifyOf(otherAdmin.token, otherAdmin.orgId)).json()).toMatchObject({ broken: null });
    await t.db.query('DELETE FROM audit_event WHERE id = $1', [theirs[1]!.id]);
    expect((await verifyOf(otherAdmin.token, otherAdmin.orgId)).json()).toMatchObject({ broken: { id: theirs[2]!.id, reason: 'link' } });
    expect(verifyExport((await exportOf(otherAdmin.token, otherAdmin.orgId)).body).broken).toMatchObject({ id: theirs[2]!.id, reason: 'link' });
  });
});
