import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_TYPES } from '@flotilla/model';
import { bearer, buildTestApp, removeOsCatalogue, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// The caller's read permission is part of every GET: the root resource, each expanded
// navigation and every navigation named in $filter and $orderby.
// alice administers A and is a plain member of B; bob administers B. Fleets are readable
// by their organization's administrators, public fleets by everybody. carol administers C
// and shares no organization with alice or bob (users read each other only when they do).

let t: TestApp;
let alice: SignedUpUser;
let bob: SignedUpUser;
let carol: SignedUpUser;
const app: Record<'aPriv' | 'aPub' | 'bPriv' | 'bPub', number> = { aPriv: 0, aPub: 0, bPriv: 0, bPub: 0 };

type Row = Record<string, unknown>;
async function get(url: string, token?: string): Promise<{ status: number; body: unknown }> {
  const res = await t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
  return { status: res.statusCode, body: res.json() };
}
async function rows(url: string, token?: string): Promise<Row[]> {
  const r = await get(url, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { d: Row[] }).d;
}
const idsOf = async (url: string, token?: string) => (await rows(url, token)).map((r) => r.id).sort((a, b) => Number(a) - Number(b));

async function insertFleet(owner: SignedUpUser, name: string, isPublic: boolean): Promise<number> {
  const { rows: r } = await t.db.query<{ id: number }>(
    `INSERT INTO application (actor, app_name, slug, uuid, organization, is_for__device_type, is_public)
     VALUES ($1, $2, $3, $4, $5, (SELECT id FROM device_type WHERE slug = 'raspberrypi3'), $6) RETURNING id`,
    [owner.actorId, name, `${owner.username}/${name}`, randomBytes(16).toString('hex'), owner.orgId, isPublic],
  );
  return r[0]!.id;
}

beforeAll(async () => {
  t = await buildTestApp();
  // These tests compare every application a caller reads with the ones they made.
  await removeOsCatalogue(t.db);
  alice = await signUp(t.app);
  bob = await signUp(t.app);
  carol = await signUp(t.app);
  app.aPriv = await insertFleet(alice, 'a-private', false);
  app.aPub = await insertFleet(alice, 'a-public', true);
  app.bPriv = await insertFleet(bob, 'b-private', false);
  app.bPub = await insertFleet(bob, 'b-public', true);
  await t.db.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     VALUES ($1, $2, (SELECT id FROM organization_membership_role WHERE name = 'member'))`,
    [alice.userId, bob.orgId],
  );
});
afterAll(async () => {
  await t.close();
});

describe('anonymous callers', () => {
  it('get 401 "Unauthorized" for resources they may not read at all', async () => {
    expect(await get('/v7/user')).toEqual({ status: 401, body: 'Unauthorized' });
    expect(await get('/v7/organization?$select=id')).toEqual({ status: 401, body: 'Unauthorized' });
    expect(await get('/v7/user/$count')).toEqual({ status: 401, body: 'Unauthorized' });
  });

  it('see public fleets only, and no organization through $expand', async () => {
    const list = await rows('/v7/application?$select=id&$expand=organization&$orderby=id asc');
    expect(list).toEqual([
      { id: app.aPub, organization: [] },
      { id: app.bPub, organization: [] },
    ]);
    expect(await rows(`/v7/application(${app.aPriv})`)).toEqual([]);
  });

  it('read the public reference data', async () => {
    expect((await rows('/v7/device_type?$select=id')).length).toBe(DEVICE_TYPES.length);
    expect((await rows('/v7/device_type_alias?$select=id')).length).toBeGreaterThan(10);
  });
});

describe('the root resource', () => {
  it('returns only the rows the caller may read', async () => {
    expect(await idsOf('/v7/application?$select=id', alice.token)).toEqual([app.aPriv, app.aPub, app.bPub]);
    expect(await idsOf('/v7/application?$select=id', bob.token)).toEqual([app.aPub, app.bPriv, app.bPub]);
    expect(await idsOf('/v7/organization?$select=id', alice.token)).toEqual([alice.orgId, bob.orgId]);
    expect(await idsOf('/v7/organization?$select=id', bob.token)).toEqual([bob.orgId]);
  });

  it('answers an unreadable id like a missing one: 200 {"d":[]}', async () => {
    expect(await get(`/v7/application(${app.bPriv})`, alice.token)).toEqual({ status: 200, body: { d: [] } });
    expect(await get(`/v7/user(${carol.userId})`, alice.token)).toEqual({ status: 200, body: { d: [] } });
    expect(await get(`/v7/user(${alice.userId})?$select=id`, carol.token)).toEqual({ status: 200, body: { d: [] } });
    expect(await get(`/v7/organization(handle='${alice.username}')`, bob.token)).toEqual({ status: 200, body: { d: [] } });
  });

  it('counts only readable rows', async () => {
    expect((await get('/v7/application/$count', alice.token)).body).toEqual({ d: 3 });
    expect((await get('/v7/application/$count')).body).toEqual({ d: 2 });
  });
});

describe('navigations', () => {
  it('$expand shows related rows only where the caller may read them', async () => {
    const list = await rows(`/v7/application?$select=id&$orderby=id asc&$expand=organization($select=id)`, bob.token);
    expect(list).toEqual([
      { id: app.aPub, organization: [] },
      { id: app.bPriv, organization: [{ id: bob.orgId }] },
      { id: app.bPub, organization: [{ id: bob.orgId }] },
    ]);
  });

  it('$expand checks every level', async () => {
    const [org] = await rows(`/v7/organization(${bob.orgId})?$select=id&$expand=application($select=id;$orderby=id asc;$expand=organization($select=id))`, alice.token);
    // alice is only a member of B: of its fleets she reads the public one.
    expect(org).toEqual({ id: bob.orgId, application: [{ id: app.bPub, organization: [{ id: bob.orgId }] }] });
  });

  it('$expand nav/$count counts readable rows only', async () => {
    expect(await rows(`/v7/organization(${bob.orgId})?$select=id&$expand=application/$count`, alice.token)).toEqual([{ id: bob.orgId, application: 1 }]);
    expect(await rows(`/v7/organization(${bob.orgId})?$select=id&$expand=application/$count`, bob.token)).toEqual([{ id: bob.orgId, application: 2 }]);
  });

  it('a $filter on something the caller may not read reveals nothing', async () => {
    // a-public is public, but bob may not read its organization.
    expect(await rows(`/v7/application?$select=id&$filter=organization/any(o:o/handle eq '${alice.username}')`, bob.token)).toEqual([]);
    expect(await rows(`/v7/application?$select=id&$filter=organization/handle eq '${alice.username}'`, bob.token)).toEqual([]);
    expect(await idsOf(`/v7/application?$select=id&$filter=organization/handle eq '${alice.username}'`, alice.token)).toEqual([app.aPriv, app.aPub]);
    // nav/$count in $filter: alice sees one fleet of B, bob two.
    expect(await idsOf('/v7/organization?$select=id&$filter=application/$count gt 1', alice.token)).toEqual([alice.orgId]);
    expect(await idsOf('/v7/organization?$select=id&$filter=application/$count gt 1', bob.token)).toEqual([bob.orgId]);
    // all(): vacuously true over the rows one may read.
    expect(await idsOf(`/v7/organization?$select=id&$filter=application/all(a:a/is_public eq true)`, alice.token)).toEqual([bob.orgId]);
  });

  it('$orderby through a navigation the caller may not read sorts as null', async () => {
    const asc = await rows('/v7/application?$select=id&$orderby=organization/name asc,id asc', bob.token);
    expect(asc.map((r) => r.id)).toEqual([app.bPriv, app.bPub, app.aPub]);
    const desc = await rows('/v7/application?$select=id&$orderby=organization/name desc,id asc', bob.token);
    expect(desc.map((r) => r.id)).toEqual([app.aPub, app.bPriv, app.bPub]);
  });

  it('memberships of an organization are readable by its members only', async () => {
    const url = `/v7/organization_membership?$select=user&$filter=is_member_of__organization eq ${bob.orgId}&$orderby=id asc`;
    expect(await rows(url, alice.token)).toEqual([{ user: { __id: bob.userId } }, { user: { __id: alice.userId } }]);
    expect(await rows(`/v7/organization_membership?$select=id&$filter=is_member_of__organization eq ${alice.orgId}`, bob.token)).toEqual([]);
    // Expanding the user of a membership: alice reads herself and her co-member bob.
    const withUsers = await rows(`${url}&$expand=user($select=username)`, alice.token);
    expect(withUsers).toEqual([{ user: [{ username: bob.username }] }, { user: [{ username: alice.username }] }]);
  });

  it('an expanded user who shares no organization with the caller is not readable', async () => {
    // carol is a direct member of bob's fleet, but of none of bob's organizations.
    await t.db.query(
      `INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role)
       VALUES ($1, $2, (SELECT id FROM application_membership_role WHERE name = 'developer'))`,
      [carol.userId, app.bPriv],
    );
    const url = `/v7/user_application_membership?$select=user&$filter=is_member_of__application eq ${app.bPriv}&$expand=user($select=username)`;
    expect(await rows(url, bob.token)).toEqual([{ user: [] }]);
  });
});
