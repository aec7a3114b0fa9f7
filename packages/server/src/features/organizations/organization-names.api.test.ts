import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePlatformAdmin } from '../users/platform-admin.js';
import { createUser } from '../users/user.service.js';
import { bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Names that must not clash, each checked by a repository query no other test reaches
// (issue 13 item 4): derived usernames against users and organizations, organization names
// and handles, several teams renamed to one name, and the one platform administrator.
let t: TestApp;
let admin: SignedUpUser;

const req = (token: string, method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url, headers: bearer(token), payload });

interface OrganizationOf {
  username: string;
  handle: string;
  role: string;
}

/** The user's username, their personal organization's handle and their role there. */
async function personalOrganization(userId: number): Promise<OrganizationOf> {
  const { rows } = await t.db.query<OrganizationOf>(
    `SELECT u.username, o.handle, r.name AS role FROM "user" u
       JOIN organization_membership m ON m."user" = u.id
       JOIN organization o ON o.id = m.is_member_of__organization AND o.handle = lower(u.username)
       JOIN organization_membership_role r ON r.id = m.organization_membership_role
      WHERE u.id = $1`,
    [userId],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signUp(t.app);
});
afterAll(async () => {
  await t.close();
});

describe('derived usernames', () => {
  it('skip a username or organization name already taken, and the user administers their personal organization', async () => {
    const base = `dana${process.pid}`;
    const first = await createUser(t.db, { email: `${base}@one.example`, password: 'correct horse battery' });
    expect(first.username).toBe(base);
    // The same local part at another domain: the next candidate.
    const second = await createUser(t.db, { email: `${base.toUpperCase()}@two.example`, password: 'correct horse battery' });
    expect(second.username).toBe(`${base}2`);
    // An organization named like the third candidate (case-insensitively) takes it too.
    const org = await req(admin.token, 'POST', '/v7/organization', { name: `${base.toUpperCase()}3`, handle: `other_${base}` });
    expect(org.statusCode, org.body).toBe(201);
    const third = await createUser(t.db, { email: `${base}@three.example`, password: 'correct horse battery' });
    expect(third.username).toBe(`${base}4`);
    for (const user of [first, second, third]) {
      expect(await personalOrganization(user.id)).toEqual({ username: user.username, handle: user.username, role: 'administrator' });
    }
  });
});

describe('organization names', () => {
  it('are unique case-insensitively, and handles are unique: 409 before the insert', async () => {
    const name = `Acme ${admin.userId}`;
    expect((await req(admin.token, 'POST', '/v7/organization', { name, handle: `acme_${admin.userId}` })).statusCode).toBe(201);
    const sameName = await req(admin.token, 'POST', '/v7/organization', { name: `  ${name.toUpperCase()} `, handle: `acme2_${admin.userId}` });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toBe('Unique key constraint violated');
    const sameHandle = await req(admin.token, 'POST', '/v7/organization', { name: `Acme two ${admin.userId}`, handle: `acme_${admin.userId}` });
    expect(sameHandle.statusCode).toBe(409);
    expect(sameHandle.json()).toBe('Unique key constraint violated');
    // A derived handle clashes like a given one.
    const derived = await req(admin.token, 'POST', '/v7/organization', { name: `acme_${admin.userId}` });
    expect(derived.statusCode).toBe(409);
  });
});

describe('team names', () => {
  it('several teams of one organization renamed to one name at once: 409, nothing renamed', async () => {
    const ids: number[] = [];
    for (const name of ['Red', 'Blue']) {
      const res = await req(admin.token, 'POST', '/v7/team', { name, belongs_to__organization: admin.orgId });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const both = await req(admin.token, 'PATCH', `/v7/team?$filter=id eq ${ids[0]} or id eq ${ids[1]}`, { name: 'Purple' });
    expect(both.statusCode).toBe(409);
    expect(both.json()).toBe('Unique key constraint violated');
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM team WHERE id = ANY($1) ORDER BY id', [ids]);
    expect(rows.map((r) => r.name)).toEqual(['Red', 'Blue']);
    // One of them alone may take it.
    const one = await req(admin.token, 'PATCH', `/v7/team?$filter=id eq ${ids[0]}`, { name: 'Purple' });
    expect(one.statusCode, one.body).toBe(200);
  });
});

describe('the platform administrator', () => {
  it('is created on the first start only', async () => {
    const announced: string[][] = [];
    const email = `root${process.pid}@example.com`;
    await ensurePlatformAdmin(t.db, { email, password: 'a platform admin password' }, (lines) => announced.push(lines));
    expect(announced).toHaveLength(1);
    expect(announced[0]![0]).toContain(email);
    await ensurePlatformAdmin(t.db, { email: `second${process.pid}@example.com` }, (lines) => announced.push(lines));
    expect(announced).toHaveLength(1);
    const { rows } = await t.db.query<{ email: string }>(`SELECT email FROM "user" WHERE platform_role = 'administrator'`);
    expect(rows).toEqual([{ email }]);
  });
});
