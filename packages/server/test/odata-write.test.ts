import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp, insertFleet as insertFleetRow } from './harness.js';
import { asRoot, odataDelete, odataPatch } from '../src/infra/odata/index.js';
import { BadRequestError } from '../src/infra/errors.js';

// POST, PATCH/PUT and DELETE on the data API: validation, permission rules inside the
// transaction, error mapping and hooks.

let t: TestApp;
let alice: SignedUpUser;
let bob: SignedUpUser;
let rpi3: number;

type Row = Record<string, unknown>;
const uuid = () => randomBytes(16).toString('hex');

async function send(method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown, token?: string) {
  const res = await t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.body, json: () => res.json(), location: res.headers.location };
}
async function fleet(id: number): Promise<Row | undefined> {
  return (await t.db.query<Row>('SELECT * FROM application WHERE id = $1', [id])).rows[0];
}
const fleetCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM application')).rows[0]!.n;

const insertFleet = (owner: SignedUpUser, name: string, extra: Row = {}) => insertFleetRow(t.db, owner, name, extra);

beforeAll(async () => {
  t = await buildTestApp();
  alice = await signUp(t.app);
  bob = await signUp(t.app);
  rpi3 = (await t.db.query<{ id: number }>(`SELECT id FROM device_type WHERE slug = 'raspberrypi3'`)).rows[0]!.id;
  // Fleet creation needs the server-maintained actor and slug; business rules provide
  // them. This hook fills them only where no rule did, so the tests do not depend on
  // which rules exist yet.
  t.app.context.rules.register('application', 'POST', {
    async before({ tx, actor, body }) {
      body.actor ??= actor.actorId ?? undefined;
      if (body.slug === undefined) {
        const { rows } = await tx.query<{ handle: string }>('SELECT handle FROM organization WHERE id = $1', [body.organization]);
        body.slug = `${rows[0]?.handle ?? 'x'}/${String(body.app_name)}`.toLowerCase();
      }
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('POST', () => {
  it('creates a row and answers 201 with the entity re-read, FKs as {__id}, and a Location', async () => {
    const body = { app_name: 'first-fleet', organization: alice.orgId, is_for__device_type: { __id: rpi3 }, uuid: uuid() };
    const res = await send('POST', '/v7/application', body, alice.token);
    expect(res.status, res.body).toBe(201);
    const entity = res.json();
    expect(entity).toMatchObject({
      app_name: 'first-fleet',
      uuid: body.uuid,
      organization: { __id: alice.orgId },
      is_for__device_type: { __id: rpi3 },
      actor: { __id: expect.any(Number) },
      is_of__class: 'fleet',
      should_track_latest_release: true,
    });
    expect(entity.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.location).toBe(`/v7/application(${entity.id})`);
    expect(await fleet(entity.id)).toMatchObject({ app_name: 'first-fleet', organization: alice.orgId });
  });

  it('creates an organization (unconditional create) and returns it', async () => {
    const res = await send('POST', '/v6/organization', { name: 'Org Two', handle: `org_two_${process.pid}` }, alice.token);
    expect(res.status, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Org Two', is_frozen: false });
    expect(res.location).toBe(`/v6/organization(${res.json().id})`);
  });

  it('rolls back with 401 when the new row does not satisfy the create rule', async () => {
    const before = await fleetCount();
    const res = await send('POST', '/v7/application', { app_name: 'intruder', organization: bob.orgId, is_for__device_type: rpi3, uuid: uuid() }, alice.token);
    expect(res.status).toBe(401);
    expect(res.json()).toBe('Unauthorized');
    expect(await fleetCount()).toBe(before);
  });

  it('answers 401 to a caller with no create permission at all', async () => {
    const res = await send('POST', '/v7/application', { app_name: 'anon-fleet', organization: alice.orgId, is_for__device_type: rpi3 });
    expect(res.status).toBe(401);
    expect((await send('POST', '/v7/device_type', { slug: 'x' }, alice.token)).status).toBe(401);
  });

  it('maps a unique violation to 409 and supports the SDK upsert (POST, then PATCH on /unique/i)', async () => {
    const id = uuid();
    const ok = await send('POST', '/v7/application', { app_name: 'upsert-one', organization: alice.orgId, is_for__device_type: rpi3, uuid: id }, alice.token);
    expect(ok.status).toBe(201);
    const again = await send('POST', '/v7/application', { app_name: 'upsert-two', organization: alice.orgId, is_for__device_type: rpi3, uuid: id }, alice.token);
    expect(again.status).toBe(409);
    expect(again.json()).toBe('Unique key constraint violated');
    expect(again.json()).toMatch(/unique/i);
    const patch = await send('PATCH', `/v7/application?$filter=organization eq ${alice.orgId} and uuid eq '${id}'`, { is_public: true }, alice.token);
    expect(patch.status).toBe(200);
    expect(await fleet(ok.json().id)).toMatchObject({ is_public: true, app_name: 'upsert-one' });
  });

  it('maps a foreign key violation to 409 where every row of the target is readable; otherwise a missing row is 401 like an unreadable one', async () => {
    const res = await send('POST', '/v7/application', { app_name: 'bad-type', organization: alice.orgId, is_for__device_type: rpi3, application_type: 999999, uuid: uuid() }, alice.token);
    expect(res.status).toBe(409);
    expect(res.json()).toBe('Foreign key constraint violated');
    // Device types are read under a condition (private ones are hidden): no oracle.
    const hidden = await send('POST', '/v7/application', { app_name: 'bad-type', organization: alice.orgId, is_for__device_type: 999999, uuid: uuid() }, alice.token);
    expect(hidden.status).toBe(401);
    expect(hidden.json()).toBe('Unauthorized');
  });

  it('rejects invalid bodies with 400 and creates nothing', async () => {
    const base = { app_name: 'valid-name', organization: alice.orgId, is_for__device_type: rpi3, uuid: uuid() };
    const cases: [Row | unknown, RegExp | string][] = [
      [{ ...base, nope: 1 }, "Unknown field 'nope' on resource 'application'"],
      [{ ...base, slug: 'x/y' }, "Field 'slug' on resource 'application' is not writable"],
      [{ ...base, app_name: 42 }, /expected a string/],
      [{ ...base, organization: 'one' }, /expected an integer/],
      [{ ...base, is_public: 'yes' }, /expected a boolean/],
      [{ ...base, is_of__class: 'boat' }, /must be one of/],
      [{ ...base, app_name: 'x'.repeat(101) }, /at most 100 characters/],
      [{ organization: alice.orgId, is_for__device_type: rpi3, uuid: uuid() }, /required/],
      [[base], 'The request body must be a JSON object'],
    ];
    const before = await fleetCount();
    for (const [body, message] of cases) {
      const res = await send('POST', '/v7/application', body, alice.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatch(message);
    }
    expect(await fleetCount()).toBe(before);
  });

  it('rejects a secret field with the unknown-field message', async () => {
    const res = await send('POST', '/v7/organization', { name: 'Secretive', handle: `sec_${process.pid}`, password: 'x' }, alice.token);
    expect(res.status).toBe(400);
    expect(res.json()).toBe("Unknown field 'password' on resource 'organization'");
    const user = await send('PATCH', `/v7/user(${alice.userId})`, { password: 'x' }, alice.token);
    expect(user.status).toBe(400);
    expect(user.json()).toBe("Unknown field 'password' on resource 'user'");
  });
});

describe('PATCH and PUT', () => {
  it('updates by id with 200 and an empty body', async () => {
    const id = await insertFleet(alice, 'patch-me');
    const res = await send('PATCH', `/v7/application(${id})`, { app_name: 'patched', is_public: true }, alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(await fleet(id)).toMatchObject({ app_name: 'patched', is_public: true });
    const put = await send('PUT', `/v7/application(${id})`, { app_name: 'put-name' }, alice.token);
    expect(put.status).toBe(200);
    expect(await fleet(id)).toMatchObject({ app_name: 'put-name' });
  });

  it('updates by $filter only the rows the update rule allows', async () => {
    const mine = await insertFleet(alice, 'mine-one');
    const theirs = await insertFleet(bob, 'theirs-one', { is_public: true });
    const res = await send('PATCH', `/v7/application?$filter=id in (${mine}, ${theirs})`, { is_archived: true }, alice.token);
    expect(res.status).toBe(200);
    expect(await fleet(mine)).toMatchObject({ is_archived: true });
    expect(await fleet(theirs)).toMatchObject({ is_archived: false });
  });

  it('answers 200 and changes nothing for an unauthorised or missing id', async () => {
    const theirs = await insertFleet(bob, 'theirs-two');
    expect((await send('PATCH', `/v7/application(${theirs})`, { app_name: 'hijacked' }, alice.token)).status).toBe(200);
    expect(await fleet(theirs)).toMatchObject({ app_name: 'theirs-two' });
    expect((await send('PATCH', '/v7/application(999999)', { app_name: 'ghost' }, alice.token)).status).toBe(200);
  });

  it('combines a key path with $filter', async () => {
    const id = await insertFleet(alice, 'key-and-filter');
    await send('PATCH', `/v7/application(${id})?$filter=app_name eq 'other'`, { is_public: true }, alice.token);
    expect(await fleet(id)).toMatchObject({ is_public: false });
  });

  it("refuses fields that are writable on create only, and bad values, changing nothing", async () => {
    const id = await insertFleet(alice, 'stable-one');
    const before = await fleet(id);
    for (const body of [{ uuid: uuid() }, { is_public: 'yes' }, { app_name: null }, { organization: { __id: 'x' } }]) {
      const res = await send('PATCH', `/v7/application(${id})`, body, alice.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await fleet(id)).toEqual(before);
  });

  it('lets users update themselves but not others', async () => {
    expect((await send('PATCH', `/v7/user(${alice.userId})`, { first_name: 'Alice' }, alice.token)).status).toBe(200);
    expect((await send('PATCH', `/v7/user(${bob.userId})`, { first_name: 'Mallory' }, alice.token)).status).toBe(200);
    const { rows } = await t.db.query<{ id: number; first_name: string | null }>('SELECT id, first_name FROM "user" WHERE id = ANY($1) ORDER BY id', [[alice.userId, bob.userId]]);
    expect(rows).toEqual([
      { id: alice.userId, first_name: 'Alice' },
      { id: bob.userId, first_name: null },
    ]);
  });

  it('answers 401 to a caller without any update permission', async () => {
    const id = await insertFleet(alice, 'anon-target', { is_public: true });
    expect((await send('PATCH', `/v7/application(${id})`, { app_name: 'x' })).status).toBe(401);
    expect((await send('DELETE', `/v7/application(${id})`)).status).toBe(401);
    expect(await fleet(id)).toMatchObject({ app_name: 'anon-target' });
  });
});

describe('DELETE', () => {
  it('deletes by id and by $filter, only rows the delete rule allows; 200 even when nothing matched', async () => {
    const a = await insertFleet(alice, 'delete-a');
    const b = await insertFleet(alice, 'delete-b');
    const theirs = await insertFleet(bob, 'delete-theirs', { is_public: true });
    const byId = await send('DELETE', `/v7/application(${a})`, undefined, alice.token);
    expect(byId.status).toBe(200);
    expect(byId.body).toBe('');
    expect(await fleet(a)).toBeUndefined();
    expect((await send('DELETE', `/v7/application?$filter=id in (${b}, ${theirs})`, undefined, alice.token)).status).toBe(200);
    expect(await fleet(b)).toBeUndefined();
    expect(await fleet(theirs)).toBeDefined();
    expect((await send('DELETE', '/v7/application(999999)', undefined, alice.token)).status).toBe(200);
  });

  it('maps a restricting foreign key to 409', async () => {
    await insertFleet(alice, 'pins-device-type');
    const ctx = asRoot({ actorId: alice.actorId, permissions: [] });
    await expect(odataDelete(t.app.context, t.db, ctx, `/device_type(${rpi3})`)).rejects.toMatchObject({ statusCode: 409, message: 'Foreign key constraint violated' });
    expect((await t.db.query('SELECT 1 FROM device_type WHERE id = $1', [rpi3])).rowCount).toBe(1);
  });
});

describe('HEAD', () => {
  it('reads like GET and never writes', async () => {
    const id = await insertFleet(alice, 'head-target');
    const res = await t.app.inject({ method: 'HEAD', url: `/v7/application(${id})`, headers: bearer(alice.token) });
    expect(res.statusCode).toBe(200);
    expect(await fleet(id)).toBeDefined();
  });
});

describe('hooks', () => {
  it('before may change the body and sees the ids the caller may touch', async () => {
    const mine = await insertFleet(alice, 'hooked-mine');
    const theirs = await insertFleet(bob, 'hooked-theirs', { is_public: true });
    const seen: (readonly number[])[] = [];
    const off = t.app.context.rules.register('application', 'PATCH', {
      before({ body, ids }) {
        seen.push(ids);
        body.app_name = `${String(body.app_name)}-checked`;
      },
    });
    try {
      await send('PATCH', `/v7/application?$filter=id in (${mine}, ${theirs})`, { app_name: 'renamed' }, alice.token);
    } finally {
      off();
    }
    expect(seen).toEqual([[mine]]);
    expect(await fleet(mine)).toMatchObject({ app_name: 'renamed-checked' });
  });

  it('after runs in the same transaction: it sees the write, and its error rolls the write back', async () => {
    const id = await insertFleet(alice, 'rollback-me');
    let seenInside: unknown;
    const off = t.app.context.rules.register('application', 'PATCH', {
      async after({ tx, ids }) {
        seenInside = (await tx.query('SELECT app_name FROM application WHERE id = $1', [ids[0]])).rows[0];
        throw new BadRequestError('Rule says no');
      },
    });
    try {
      const res = await send('PATCH', `/v7/application(${id})`, { app_name: 'never-kept' }, alice.token);
      expect(res.status).toBe(400);
      expect(res.json()).toBe('Rule says no');
    } finally {
      off();
    }
    expect(seenInside).toEqual({ app_name: 'never-kept' });
    expect(await fleet(id)).toMatchObject({ app_name: 'rollback-me' });
  });

  it('POST hooks: acceptFields lets a before hook translate an input; after gets the new id', async () => {
    const carol = await signUp(t.app);
    // The username path adds only people who already share an organization with the caller.
    const shared = await send('POST', '/v7/organization', { name: `shared-${carol.userId}` }, bob.token);
    await addOrganizationMember(t.db, carol.userId, shared.json().id);
    const created: number[] = [];
    const off = t.app.context.rules.register('organization_membership', 'POST', {
      acceptFields: ['username'],
      async before({ tx, body }) {
        if (body.username === undefined) return;
        const { rows } = await tx.query<{ id: number }>('SELECT id FROM "user" WHERE username = $1', [body.username]);
        if (!rows[0]) throw new BadRequestError('No such user');
        body.user = rows[0].id;
        delete body.username;
      },
      after({ ids }) {
        created.push(...ids);
      },
    });
    try {
      const role = (await t.db.query<{ id: number }>(`SELECT id FROM organization_membership_role WHERE name = 'member'`)).rows[0]!.id;
      const res = await send('POST', '/v7/organization_membership', { username: carol.username, is_member_of__organization: bob.orgId, organization_membership_role: role }, bob.token);
      expect(res.status, res.body).toBe(201);
      expect(res.json()).toMatchObject({ user: { __id: carol.userId }, is_member_of__organization: { __id: bob.orgId } });
      expect(created).toEqual([res.json().id]);
      // Not an administrator of alice's organization: the create rule rolls it back.
      const denied = await send('POST', '/v7/organization_membership', { username: carol.username, is_member_of__organization: alice.orgId, organization_membership_role: role }, bob.token);
      expect(denied.status).toBe(401);
      // The create rule must not be satisfied by the new row itself: dave cannot make
      // himself an administrator of B (the new membership would "prove" he is one).
      const dave = await signUp(t.app);
      const adminRole = (await t.db.query<{ id: number }>(`SELECT id FROM organization_membership_role WHERE name = 'administrator'`)).rows[0]!.id;
      const selfPromotion = await send('POST', '/v7/organization_membership', { user: dave.userId, is_member_of__organization: bob.orgId, organization_membership_role: adminRole }, dave.token);
      expect(selfPromotion.status).toBe(401);
      expect((await t.db.query('SELECT 1 FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [dave.userId, bob.orgId])).rowCount).toBe(0);
    } finally {
      off();
    }
    // Without the test hook, an extra input no rule accepts is an unknown field (`username`
    // itself is accepted by the membership rules since issue 3).
    const res = await send('POST', '/v7/organization_membership', { nickname: 'x', is_member_of__organization: bob.orgId }, bob.token);
    expect(res.status).toBe(400);
    expect(res.json()).toBe("Unknown field 'nickname' on resource 'organization_membership'");
  });

  it('DELETE hooks see the ids before they are deleted; hooks can write through the data layer', async () => {
    const id = await insertFleet(alice, 'delete-hooked');
    const names: string[] = [];
    const off = t.app.context.rules.register('application', 'DELETE', {
      async before({ tx, ids }) {
        const { rows } = await tx.query<{ app_name: string }>('SELECT app_name FROM application WHERE id = ANY($1)', [ids]);
        names.push(...rows.map((r) => r.app_name));
      },
      async after({ tx, app, actor }) {
        // A rule writing on the system's behalf, in the same transaction.
        await odataPatch(app, tx, asRoot(actor), `/user(${alice.userId})`, { company: 'deleted a fleet' });
      },
    });
    try {
      expect((await send('DELETE', `/v7/application(${id})`, undefined, alice.token)).status).toBe(200);
    } finally {
      off();
    }
    expect(names).toEqual(['delete-hooked']);
    expect((await t.db.query('SELECT company FROM "user" WHERE id = $1', [alice.userId])).rows[0]).toEqual({ company: 'deleted a fleet' });
  });

});
