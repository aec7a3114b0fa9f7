import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './user.service.js';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp, sdkClient } from '../../../test/harness.js';

// Members of an organization read each other's user rows (username, names), but a user's
// private fields (email, newsletter, account type, verification, platform role) only the
// user themself, support agents and platform administrators may read: for everyone else
// they are null, and filtering or ordering by them reveals nothing.
// alice administers A; zed, yan and xia are members of A, created in that order with
// emails sorting the other way (z… > y… > x…), alice's in between (m…). olga shares no
// organization with them.

let t: TestApp;
let apiUrl: string;
let alice: SignedUpUser;
let zed: SignedUpUser;
let yan: SignedUpUser;
let xia: SignedUpUser;
let olga: SignedUpUser;
const tag = randomBytes(4).toString('hex');
const email = (prefix: string) => `${prefix}-${tag}@example.com`;

type Row = Record<string, unknown>;
async function get(url: string, token: string): Promise<{ status: number; body: unknown }> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return { status: res.statusCode, body: res.json() };
}
async function rows(url: string, token: string): Promise<Row[]> {
  const r = await get(url, token);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { d: Row[] }).d;
}
const ours = () => `id in (${[alice, zed, yan, xia].map((u) => u.userId).join(',')})`;

async function staff(role: 'administrator' | 'support_agent'): Promise<string> {
  const address = email(role.replace('_', '-'));
  await createUser(t.db, { email: address, password: 'staff-password', platformRole: role, isVerified: true });
  const login = await t.app.inject({ method: 'POST', url: '/login_', payload: { username: address, password: 'staff-password' } });
  expect(login.statusCode).toBe(200);
  return login.body;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await signUp(t.app, email('m'));
  zed = await signUp(t.app, email('z'));
  yan = await signUp(t.app, email('y'));
  xia = await signUp(t.app, email('x'));
  olga = await signUp(t.app);
  for (const u of [zed, yan, xia]) {
    await t.db.query(
      `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
       VALUES ($1, $2, (SELECT id FROM organization_membership_role WHERE name = 'member'))`,
      [u.userId, alice.orgId],
    );
  }
});
afterAll(async () => {
  await t.close();
});

describe('co-members', () => {
  it('read each other’s usernames through /v7/user', async () => {
    const expected = [alice, zed, yan, xia].map((u) => ({ id: u.userId, username: u.username }));
    expect(await rows(`/v7/user?$select=id,username&$orderby=id asc`, alice.token)).toEqual(expected);
    expect(await rows(`/v7/user?$select=id,username&$filter=${ours()}&$orderby=id asc`, zed.token)).toEqual(expected);
    expect(await rows(`/v7/user(${alice.userId})?$select=username`, xia.token)).toEqual([{ username: alice.username }]);
    expect(await rows(`/v7/user(username='${yan.username}')?$select=id`, zed.token)).toEqual([{ id: yan.userId }]);
  });

  it('read each other’s usernames through expanded organization memberships', async () => {
    const url = `/v7/organization_membership?$select=id&$filter=is_member_of__organization eq ${alice.orgId}&$orderby=id asc&$expand=user($select=username)`;
    const expected = [alice, zed, yan, xia].map((u) => ({ user: [{ username: u.username }] }));
    for (const u of [alice, yan]) expect((await rows(url, u.token)).map(({ user }) => ({ user }))).toEqual(expected);
  });

  it('see null for a co-member’s private fields, their own for themselves', async () => {
    const select = '$select=email,has_disabled_newsletter,account_type,is_verified,has_been_sent_verification_email,platform_role,username';
    const [other] = await rows(`/v7/user(${zed.userId})?${select}`, alice.token);
    expect(other).toEqual({
      email: null,
      has_disabled_newsletter: null,
      account_type: null,
      is_verified: null,
      has_been_sent_verification_email: null,
      platform_role: null,
      username: zed.username,
    });
    const [self] = await rows(`/v7/user(${alice.userId})?${select}`, alice.token);
    expect(self).toMatchObject({ email: alice.email, has_disabled_newsletter: false, is_verified: false, username: alice.username });
    // Without $select too, and inside an $expand.
    expect((await rows(`/v7/user(${zed.userId})`, alice.token))[0]).toMatchObject({ email: null, username: zed.username });
    const expanded = await rows(`/v7/organization_membership?$select=id&$filter=user eq ${zed.userId}&$expand=user($select=email)`, alice.token);
    expect(expanded.map((r) => r.user)).toEqual([[{ email: null }]]);
  });

  it('cannot find a co-member by filtering on a private field', async () => {
    expect(await rows(`/v7/user?$select=id&$filter=email eq '${zed.email}'`, alice.token)).toEqual([]);
    expect(await rows(`/v7/user?$select=id&$filter=startswith(email,'z-')`, alice.token)).toEqual([]);
    expect(await rows(`/v7/user?$select=id&$filter=email ne null`, alice.token)).toEqual([{ id: alice.userId }]);
    expect(await rows(`/v7/user?$select=id&$filter=${ours()} and email eq null&$orderby=id asc`, alice.token)).toEqual(
      [zed, yan, xia].map((u) => ({ id: u.userId })),
    );
    // The control: the same filter on one's own email finds oneself.
    expect(await rows(`/v7/user?$select=id&$filter=email eq '${alice.email}'`, alice.token)).toEqual([{ id: alice.userId }]);
  });

  it('cannot probe private fields through lambdas over navigations', async () => {
    const probe = (address: string) =>
      `/v7/organization?$select=id&$filter=id eq ${alice.orgId} and organization_membership/any(m:m/user/any(u:u/email eq '${address}'))`;
    expect(await rows(probe(zed.email), alice.token)).toEqual([]);
    expect(await rows(probe(zed.email), yan.token)).toEqual([]);
    expect(await rows(probe(alice.email), alice.token)).toEqual([{ id: alice.orgId }]); // the control
    const path = `/v7/organization_membership?$select=id&$filter=user/email eq '${zed.email}'`;
    expect(await rows(path, alice.token)).toEqual([]);
  });

  it('cannot learn the order of private fields from $orderby', async () => {
    // By their real emails zed, yan and xia would sort x < y < z (the reverse of their
    // ids) with alice (m…) among them; as nulls they keep the id order of the tie-break,
    // after (asc) or before (desc) the one email alice may read: her own.
    const ids = async (order: string) => (await rows(`/v7/user?$select=id&$filter=${ours()}&$orderby=${order}`, alice.token)).map((r) => r.id);
    const others = [zed, yan, xia].map((u) => u.userId);
    expect(await ids('email asc,id asc')).toEqual([alice.userId, ...others]);
    expect(await ids('email desc,id asc')).toEqual([...others, alice.userId]);
    expect(await ids('email asc,id desc')).toEqual([alice.userId, ...others.slice().reverse()]);
    // As zed sees it: only zed's own email is known.
    const zedIds = (await rows(`/v7/user?$select=id&$filter=${ours()}&$orderby=email asc,id asc`, zed.token)).map((r) => r.id);
    expect(zedIds).toEqual([zed.userId, alice.userId, yan.userId, xia.userId]);
  });
});

describe('users of other organizations', () => {
  it('read no user rows of ours', async () => {
    expect(await get(`/v7/user?$select=id,username&$filter=${ours()}`, olga.token)).toEqual({ status: 200, body: { d: [] } });
    expect(await get(`/v7/user(${alice.userId})`, olga.token)).toEqual({ status: 200, body: { d: [] } });
    expect(await get(`/v7/user?$select=id`, olga.token)).toEqual({ status: 200, body: { d: [{ id: olga.userId }] } });
    expect(await get(`/v7/user?$select=id`, alice.token).then((r) => JSON.stringify(r.body))).not.toContain(`"id":${olga.userId}}`);
  });
});

describe('platform staff', () => {
  it('the platform administrator reads every user’s email', async () => {
    const token = await staff('administrator');
    expect(await rows(`/v7/user(${zed.userId})?$select=email,is_verified`, token)).toEqual([{ email: zed.email, is_verified: false }]);
    expect(await rows(`/v7/user?$select=id&$filter=email eq '${olga.email}'`, token)).toEqual([{ id: olga.userId }]);
  });

  it('a support agent reads every user’s email', async () => {
    const token = await staff('support_agent');
    expect(await rows(`/v7/user(${zed.userId})?$select=email`, token)).toEqual([{ email: zed.email }]);
    expect(await rows(`/v7/user?$select=id&$filter=email eq '${olga.email}'`, token)).toEqual([{ id: olga.userId }]);
  });
});

describe('balena-sdk', () => {
  it('application.membership.create finds a co-member by username', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(alice.token);
    const app = await sdk.models.application.create({ name: 'PrivacyFleet', organization: alice.username, deviceType: 'raspberrypi3' });
    const created = await sdk.models.application.membership.create({ application: app.id, username: zed.username, roleName: 'developer' });
    const { rows: stored } = await t.db.query<{ user: number; role: string }>(
      `SELECT m."user", r.name AS role FROM user_application_membership m
       JOIN application_membership_role r ON r.id = m.application_membership_role WHERE m.id = $1`,
      [created.id],
    );
    expect(stored).toEqual([{ user: zed.userId, role: 'developer' }]);
    // A user who shares no organization cannot be found that way.
    await expect(sdk.models.application.membership.create({ application: app.id, username: olga.username, roleName: 'developer' })).rejects.toThrow();
    const { rows: none } = await t.db.query('SELECT 1 FROM user_application_membership WHERE "user" = $1', [olga.userId]);
    expect(none).toEqual([]);
  });
});

describe('the apps feature flag (displays_apps, an appearance preference)', () => {
  it('is off by default; the user turns it on for themself only; co-members read it as null', async () => {
    expect(await rows(`/v7/user(${zed.userId})?$select=displays_apps`, zed.token)).toEqual([{ displays_apps: false }]);
    const on = await t.app.inject({ method: 'PATCH', url: `/v7/user(${zed.userId})`, headers: bearer(zed.token), payload: { displays_apps: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect(await rows(`/v7/user(${zed.userId})?$select=displays_apps`, zed.token)).toEqual([{ displays_apps: true }]);
    // Private: a co-member reads null and cannot change it.
    expect(await rows(`/v7/user(${zed.userId})?$select=displays_apps`, alice.token)).toEqual([{ displays_apps: null }]);
    await t.app.inject({ method: 'PATCH', url: `/v7/user(${yan.userId})`, headers: bearer(zed.token), payload: { displays_apps: true } });
    expect((await t.db.query('SELECT displays_apps FROM "user" WHERE id = $1', [yan.userId])).rows).toEqual([{ displays_apps: false }]);
    const bad = await t.app.inject({ method: 'PATCH', url: `/v7/user(${zed.userId})`, headers: bearer(zed.token), payload: { displays_apps: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });
});
