import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { HttpError } from '../../infra/errors.js';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp, sdkClient, TEST_JWT_SECRET } from '../../../test/harness.js';

// Invitations by e-mail (issue 3): organization and fleet invites through the data API,
// the invitation mail in the outbox (where the token is read, as the invitee would read
// it), accepting with the token, and the balena-sdk invite models over real HTTP.
let t: TestApp;
let apiUrl: string;
let admin: SignedUpUser;
let dt: number;
const orgRoles: Record<string, number> = {};
const fleetRoles: Record<string, number> = {};

const req = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

let emailCounter = 0;
const freshEmail = (label: string) => `${label}.${process.pid}.${++emailCounter}@example.com`;

/** The last mail to `to` in the outbox, and the accept token in its link. */
async function mailTo(to: string): Promise<{ subject: string; text: string; html: string; link: string; token: string }> {
  const { rows } = await t.db.query<{ subject: string; text_body: string; html_body: string }>(
    // Sign-up also mails a verification link (issue 6): the last invitation mail.
    `SELECT subject, text_body, html_body FROM email_outbox WHERE recipient = $1 AND text_body LIKE '%invitation/%' ORDER BY id DESC LIMIT 1`,
    [to],
  );
  const row = rows[0];
  if (!row) throw new Error(`no mail to ${to}`);
  const m = /(http\S*\/(?:organization\/)?invitation\/([A-Za-z0-9_-]+))/.exec(row.text_body);
  if (!m) throw new Error(`no accept link in: ${row.text_body}`);
  return { subject: row.subject, text: row.text_body, html: row.html_body, link: m[1]!, token: m[2]! };
}
const mailCount = async (to: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM email_outbox WHERE recipient = $1', [to])).rows[0]!.n;

async function inviteToOrg(by: SignedUpUser, invitee: string, extra: Record<string, unknown> = {}, orgId = by.orgId) {
  return req(by.token, 'POST', '/v7/invitee__is_invited_to__organization', {
    invitee,
    is_invited_to__organization: orgId,
    organization_membership_role: orgRoles.member,
    ...extra,
  });
}

async function fleet(name: string, owner = admin): Promise<number> {
  const res = await req(owner.token, 'POST', '/v7/application', { app_name: name, organization: owner.orgId, is_for__device_type: dt });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function orgMember(orgAdmin: SignedUpUser, email?: string): Promise<SignedUpUser> {
  const u = await signUp(t.app, email);
  await addOrganizationMember(t.db, u.userId, orgAdmin.orgId);
  return u;
}

const orgRoleOf = async (userId: number, orgId: number) =>
  (
    await t.db.query<{ name: string }>(
      `SELECT r.name FROM organization_membership m JOIN organization_membership_role r ON r.id = m.organization_membership_role
        WHERE m."user" = $1 AND m.is_member_of__organization = $2`,
      [userId, orgId],
    )
  ).rows[0]?.name;
const fleetRoleOf = async (userId: number, fleetId: number) =>
  (
    await t.db.query<{ name: string }>(
      `SELECT r.name FROM user_application_membership m JOIN application_membership_role r ON r.id = m.application_membership_role
        WHERE m."user" = $1 AND m.is_member_of__application = $2`,
      [userId, fleetId],
    )
  ).rows[0]?.name;
const orgInviteCount = async (orgId: number) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM invitee__is_invited_to__organization WHERE is_invited_to__organization = $1', [orgId]))
    .rows[0]!.n;

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signUp(t.app);
  dt = (await req(admin.token, 'GET', `/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`)).json().d[0].id;
  for (const r of (await req(admin.token, 'GET', '/v7/application_membership_role?$select=id,name')).json().d) fleetRoles[r.name] = r.id;
  for (const r of (await req(admin.token, 'GET', '/v7/organization_membership_role?$select=id,name')).json().d) orgRoles[r.name] = r.id;
});
afterAll(async () => {
  await t.close();
});

describe('organization invitations', () => {
  it('mails the accept link; a new user signs up with that address, accepts, and is a member with the invited role', async () => {
    const email = freshEmail('Newbie');
    const res = await inviteToOrg(admin, email, { organization_membership_role: orgRoles.administrator, message: 'Join us <3' });
    expect(res.statusCode, res.body).toBe(201);
    const invite = res.json();
    expect(invite).toMatchObject({
      invitee: { __id: expect.any(Number) },
      message: 'Join us <3',
      is_invited_to__organization: { __id: admin.orgId },
      organization_membership_role: { __id: orgRoles.administrator },
      is_created_by__user: { __id: admin.userId },
    });
    expect(invite).not.toHaveProperty('token_hash');
    expect(Date.parse(invite.expiry) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const mail = await mailTo(email);
    expect(mail.link).toBe(`http://localhost:8080/organization/invitation/${mail.token}`);
    expect(mail.subject).toContain(admin.username);
    expect(mail.text).toContain('as administrator');
    expect(mail.text).toContain('> Join us <3');
    expect(mail.html).toContain('Join us &lt;3');
    // Only the hash is stored.
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM invitee__is_invited_to__organization WHERE id = $1', [invite.id]);
    expect(stored.rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]!.token_hash).not.toContain(mail.token);

    // A brand-new user, signing up with the invited address in another case.
    const newbie = await signUp(t.app, email.toUpperCase().replace('@EXAMPLE.COM', '@example.com'));
    const accepted = await req(newbie.token, 'POST', `/org/v1/invitation/${mail.token}`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const orgName = (await t.db.query<{ name: string }>('SELECT name FROM organization WHERE id = $1', [admin.orgId])).rows[0]!.name;
    expect(accepted.json()).toEqual({ organization: { id: admin.orgId, name: orgName } });
    expect(await orgRoleOf(newbie.userId, admin.orgId)).toBe('administrator');
    expect((await req(admin.token, 'GET', `/v7/invitee__is_invited_to__organization(${invite.id})`)).json().d).toEqual([]);

    // The token is spent.
    expect((await req(newbie.token, 'POST', `/org/v1/invitation/${mail.token}`)).statusCode).toBe(404);
  });

  it('accepts roleName in place of the role id, and invites a member when no role is given (as balena does)', async () => {
    const email = freshEmail('byname');
    const res = await req(admin.token, 'POST', '/v7/invitee__is_invited_to__organization', {
      invitee: email,
      is_invited_to__organization: admin.orgId,
      roleName: 'member',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().organization_membership_role).toEqual({ __id: orgRoles.member });

    const none = await req(admin.token, 'POST', '/v7/invitee__is_invited_to__organization', { invitee: freshEmail('norole'), is_invited_to__organization: admin.orgId });
    expect(none.statusCode, none.body).toBe(201);
    expect(none.json().organization_membership_role).toEqual({ __id: orgRoles.member });
    const bad = await inviteToOrg(admin, freshEmail('badrole'), { organization_membership_role: undefined, roleName: 'overlord' });
    expect(bad.statusCode).toBe(400);
  });

  it('rejects invalid e-mails, members and pending invitees with the spec keys', async () => {
    for (const invitee of ['not-an-email', 'a b@example.com', 'x@y', '', 'a<b@example.com', 'a@example.com, b@example.com']) {
      const res = await inviteToOrg(admin, invitee);
      expect(res.statusCode, invitee).toBe(400);
      expect(res.json()).toBe('invalid_email');
    }
    const member = await orgMember(admin, freshEmail('member'));
    const already = await inviteToOrg(admin, member.email.toUpperCase());
    expect(already.statusCode).toBe(400);
    expect(already.json()).toBe('invitee_already_exist');
    const self = await inviteToOrg(admin, admin.email);
    expect(self.json()).toBe('invitee_already_exist');

    const email = freshEmail('twice');
    expect((await inviteToOrg(admin, email)).statusCode).toBe(201);
    const again = await inviteToOrg(admin, ` ${email.toUpperCase()} `);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toBe('invitee_already_invited');
    expect(await mailCount(email)).toBe(1);
    expect(await mailCount(email.toUpperCase())).toBe(0);

    // Two concurrent invites of one address: exactly one wins.
    const racer = freshEmail('race');
    const results = await Promise.all([inviteToOrg(admin, racer), inviteToOrg(admin, racer.toUpperCase()), inviteToOrg(admin, racer)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);

    const long = await inviteToOrg(admin, freshEmail('long'), { message: 'x'.repeat(2001) });
    expect(long.statusCode).toBe(400);
  });

  it('refuses a token accepted by someone else (403, nothing changes), unknown tokens (404) and expired ones (400)', async () => {
    const email = freshEmail('intended');
    expect((await inviteToOrg(admin, email)).statusCode).toBe(201);
    const { token } = await mailTo(email);
    const intruder = await signUp(t.app);
    const before = await orgInviteCount(admin.orgId);
    const wrong = await req(intruder.token, 'POST', `/org/v1/invitation/${token}`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatch(/another e-mail address/);
    expect(await orgRoleOf(intruder.userId, admin.orgId)).toBeUndefined();
    expect(await orgInviteCount(admin.orgId)).toBe(before);

    // Not signed in.
    expect((await t.app.inject({ method: 'POST', url: `/org/v1/invitation/${token}` })).statusCode).toBe(401);
    // Unknown tokens reveal nothing.
    for (const bad of ['x'.repeat(43), 'nonsense', token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')]) {
      const res = await req(intruder.token, 'POST', `/org/v1/invitation/${bad}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.body).not.toContain(String(admin.orgId));
    }
    // An organization token is not a fleet token.
    expect((await req(intruder.token, 'POST', `/user/v1/invitation/${token}`)).statusCode).toBe(404);

    // Expired.
    const late = freshEmail('late');
    expect((await inviteToOrg(admin, late)).statusCode).toBe(201);
    const lateMail = await mailTo(late);
    await t.db.query(`UPDATE invitee__is_invited_to__organization SET expiry = now() - interval '1 minute' WHERE invitee = (SELECT id FROM invitee WHERE email = $1)`, [late]);
    const lateUser = await signUp(t.app, late);
    const expired = await req(lateUser.token, 'POST', `/org/v1/invitation/${lateMail.token}`);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatch(/expired/);
    expect(await orgRoleOf(lateUser.userId, admin.orgId)).toBeUndefined();
    // An expired invite does not block a new one (it is replaced).
    expect((await inviteToOrg(admin, late)).statusCode).toBe(201);
    const fresh = await mailTo(late);
    expect(fresh.token).not.toBe(lateMail.token);
    expect((await req(lateUser.token, 'POST', `/org/v1/invitation/${fresh.token}`)).statusCode).toBe(200);
    expect(await orgRoleOf(lateUser.userId, admin.orgId)).toBe('member');
  });

  it('lets the administrator list and revoke invites; a revoked token no longer works', async () => {
    const email = freshEmail('revoked');
    const id = (await inviteToOrg(admin, email)).json().id as number;
    const { token } = await mailTo(email);
    const list = await req(
      admin.token,
      'GET',
      `/v7/invitee__is_invited_to__organization?$filter=is_invited_to__organization eq ${admin.orgId}&$select=id,invitee&$expand=invitee($select=email)`,
    );
    expect(list.json().d).toContainEqual({ id, invitee: [{ email }] });
    expect((await req(admin.token, 'DELETE', `/v7/invitee__is_invited_to__organization(${id})`)).statusCode).toBe(200);
    expect((await req(admin.token, 'GET', `/v7/invitee__is_invited_to__organization(${id})`)).json().d).toEqual([]);
    const u = await signUp(t.app, email);
    expect((await req(u.token, 'POST', `/org/v1/invitation/${token}`)).statusCode).toBe(404);
  });

  it('nobody selects, filters by or writes the token hash, and nobody patches an invite', async () => {
    const id = (await inviteToOrg(admin, freshEmail('hash'))).json().id as number;
    for (const url of [
      `/v7/invitee__is_invited_to__organization?$select=token_hash`,
      `/v7/invitee__is_invited_to__organization?$filter=token_hash eq 'x'`,
      `/v7/invitee__is_invited_to__organization?$orderby=token_hash asc`,
    ]) {
      expect((await req(admin.token, 'GET', url)).statusCode, url).toBe(400);
    }
    const all = (await req(admin.token, 'GET', `/v7/invitee__is_invited_to__organization(${id})`)).json().d[0];
    expect(Object.keys(all)).not.toContain('token_hash');
    const forged = await inviteToOrg(admin, freshEmail('forged'), { token_hash: 'a'.repeat(64) });
    expect(forged.statusCode).toBe(400);
    const patch = await req(admin.token, 'PATCH', `/v7/invitee__is_invited_to__organization(${id})`, { message: 'changed' });
    expect(patch.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('a plain member cannot invite or list invites; the invitee does not see them through /v7', async () => {
    const member = await orgMember(admin, freshEmail('plain'));
    const email = freshEmail('by-member');
    const res = await inviteToOrg(member, email, {}, admin.orgId);
    expect(res.statusCode).toBe(401);
    expect(await mailCount(email)).toBe(0);
    // A member learns nothing about who is a member or invited.
    expect((await inviteToOrg(member, admin.email, {}, admin.orgId)).statusCode).toBe(401);
    expect((await req(member.token, 'GET', '/v7/invitee__is_invited_to__organization?$select=id')).json().d).toEqual([]);

    const invitedEmail = freshEmail('invitee-reads');
    expect((await inviteToOrg(admin, invitedEmail)).statusCode).toBe(201);
    const invitee = await signUp(t.app, invitedEmail);
    expect((await req(invitee.token, 'GET', '/v7/invitee__is_invited_to__organization?$select=id')).json().d).toEqual([]);
  });

  it('isolates tenants: another organization administrator cannot read, revoke, or invite into it', async () => {
    const other = await signUp(t.app);
    const email = freshEmail('isolated');
    const id = (await inviteToOrg(admin, email)).json().id as number;
    expect((await req(other.token, 'GET', `/v7/invitee__is_invited_to__organization?$select=id`)).json().d).toEqual([]);
    expect((await req(other.token, 'GET', `/v7/invitee__is_invited_to__organization(${id})`)).json().d).toEqual([]);
    await req(other.token, 'DELETE', `/v7/invitee__is_invited_to__organization(${id})`);
    expect(await orgInviteCount(admin.orgId)).toBeGreaterThan(0);
    expect((await t.db.query('SELECT 1 FROM invitee__is_invited_to__organization WHERE id = $1', [id])).rowCount).toBe(1);
    expect((await inviteToOrg(other, freshEmail('cross'), {}, admin.orgId)).statusCode).toBe(401);
    // Their own invites are theirs.
    const own = await inviteToOrg(other, email);
    expect(own.statusCode, own.body).toBe(201);
    const listed = (await req(other.token, 'GET', `/v7/invitee__is_invited_to__organization?$select=id`)).json().d;
    expect(listed).toEqual([{ id: own.json().id }]);
    // Accepting the other organization's invitation does not admit the invitee to ours.
    const invitee = await signUp(t.app, email);
    const accepted = await req(invitee.token, 'POST', `/org/v1/invitation/${(await mailTo(email)).token}`);
    expect(accepted.json().organization.id).toBe(other.orgId);
    expect(await orgRoleOf(invitee.userId, admin.orgId)).toBeUndefined();
    expect(await orgRoleOf(invitee.userId, other.orgId)).toBe('member');
  });
});

describe('fleet invitations', () => {
  it('mails the accept link; accepting adds the fleet role and a member organization membership', async () => {
    const fleetId = await fleet('InviteFleet');
    const email = freshEmail('fleetie');
    const res = await req(admin.token, 'POST', '/v7/invitee__is_invited_to__application', {
      invitee: email,
      is_invited_to__application: fleetId,
      application_membership_role: fleetRoles.developer,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).not.toHaveProperty('token_hash');
    const mail = await mailTo(email);
    expect(mail.link).toBe(`http://localhost:8080/invitation/${mail.token}`);
    expect(mail.text).toContain('fleet "InviteFleet"');

    const again = await req(admin.token, 'POST', '/v7/invitee__is_invited_to__application', {
      invitee: email,
      is_invited_to__application: fleetId,
      roleName: 'observer',
    });
    expect(again.json()).toBe('invitee_already_invited');

    const user = await signUp(t.app, email);
    expect((await req(user.token, 'POST', `/org/v1/invitation/${mail.token}`)).statusCode).toBe(404);
    const accepted = await req(user.token, 'POST', `/user/v1/invitation/${mail.token}`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toEqual({ application: { id: fleetId, app_name: 'InviteFleet' } });
    expect(await fleetRoleOf(user.userId, fleetId)).toBe('developer');
    expect(await orgRoleOf(user.userId, admin.orgId)).toBe('member');
    expect((await req(user.token, 'GET', `/v7/application(${fleetId})?$select=id`)).json().d).toEqual([{ id: fleetId }]);
    expect((await t.db.query('SELECT 1 FROM invitee__is_invited_to__application WHERE is_invited_to__application = $1', [fleetId])).rowCount).toBe(0);

    // Now a fleet member: a new invite is refused.
    const member = await req(admin.token, 'POST', '/v7/invitee__is_invited_to__application', {
      invitee: email,
      is_invited_to__application: fleetId,
      roleName: 'observer',
    });
    expect(member.json()).toBe('invitee_already_exist');
  });

  it('only fleet administrators invite, list and revoke', async () => {
    const fleetId = await fleet('GuardedFleet');
    const dev = await orgMember(admin, freshEmail('dev'));
    const share = await req(admin.token, 'POST', '/v7/user_application_membership', {
      user: dev.userId,
      is_member_of__application: fleetId,
      application_membership_role: fleetRoles.developer,
    });
    expect(share.statusCode).toBe(201);
    const body = (invitee: string) => ({ invitee, is_invited_to__application: fleetId, roleName: 'observer' });
    expect((await req(dev.token, 'POST', '/v7/invitee__is_invited_to__application', body(freshEmail('x')))).statusCode).toBe(401);
    const id = (await req(admin.token, 'POST', '/v7/invitee__is_invited_to__application', body(freshEmail('y')))).json().id as number;
    expect((await req(dev.token, 'GET', '/v7/invitee__is_invited_to__application?$select=id')).json().d).toEqual([]);
    await req(dev.token, 'DELETE', `/v7/invitee__is_invited_to__application(${id})`);
    expect((await req(admin.token, 'GET', `/v7/invitee__is_invited_to__application(${id})?$select=id`)).json().d).toEqual([{ id }]);
    // A fleet administrator (not an organization administrator) may.
    const fleetAdmin = await orgMember(admin, freshEmail('fleetadmin'));
    await req(admin.token, 'POST', '/v7/user_application_membership', {
      user: fleetAdmin.userId,
      is_member_of__application: fleetId,
      application_membership_role: fleetRoles.administrator,
    });
    expect((await req(fleetAdmin.token, 'GET', '/v7/invitee__is_invited_to__application?$select=id')).json().d).toEqual([{ id }]);
    expect((await req(fleetAdmin.token, 'DELETE', `/v7/invitee__is_invited_to__application(${id})`)).statusCode).toBe(200);
    expect((await req(admin.token, 'GET', `/v7/invitee__is_invited_to__application(${id})?$select=id`)).json().d).toEqual([]);
    const other = await signUp(t.app);
    expect((await req(other.token, 'POST', '/v7/invitee__is_invited_to__application', body(freshEmail('z')))).statusCode).toBe(401);
  });
});

describe('invitation mail', () => {
  it('a failing mail server does not fail the invite; the failure is in the outbox', async () => {
    const broken = new Mailer({ db: t.db, smtpUrl: 'smtp://127.0.0.1:1', timeouts: { connection: 2000, greeting: 2000, socket: 2000 } });
    // The same server (database, secret) with that mailer: the invite goes through it.
    const brokenApp = await buildApp({ db: t.db, jwtSecret: TEST_JWT_SECRET, mailer: broken });
    try {
      const email = freshEmail('smtp-down');
      const res = await brokenApp.inject({
        method: 'POST',
        url: '/v7/invitee__is_invited_to__organization',
        headers: bearer(admin.token),
        payload: { invitee: email, is_invited_to__organization: admin.orgId, organization_membership_role: orgRoles.member },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { rows } = await t.db.query<{ sent_via: string; error: string | null; text_body: string }>(
        'SELECT sent_via, error, text_body FROM email_outbox WHERE recipient = $1',
        [email],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sent_via).toBe('smtp');
      expect(rows[0]!.error).toBeTruthy();
      expect(rows[0]!.text_body).toMatch(/\/organization\/invitation\/[A-Za-z0-9_-]{43}/);
      expect((await t.db.query('SELECT 1 FROM invitee__is_invited_to__organization i JOIN invitee e ON e.id = i.invitee WHERE e.email = $1', [email])).rowCount).toBe(1);
    } finally {
      await brokenApp.close();
      broken.close();
    }
  });

  it('no mail is sent for a refused invite', async () => {
    const member = await orgMember(admin, freshEmail('nomail'));
    const before = await mailCount(member.email);
    expect((await inviteToOrg(admin, member.email)).statusCode).toBe(400);
    expect(await mailCount(member.email)).toBe(before);
  });

  it('no mail leaves for an invite whose transaction rolls back after it was written', async () => {
    // A later rule of the same write refuses it: the invite row and its mail both vanish.
    const unregister = t.app.context.rules.register('invitee__is_invited_to__organization', 'POST', {
      after: () => {
        throw new HttpError(400, 'refused by a later rule');
      },
    });
    const email = freshEmail('rolledback');
    try {
      const res = await inviteToOrg(admin, email);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toBe('refused by a later rule');
    } finally {
      unregister();
    }
    expect(await mailCount(email)).toBe(0);
    const { rows } = await t.db.query('SELECT 1 FROM invitee__is_invited_to__organization i JOIN invitee e ON e.id = i.invitee WHERE e.email = $1', [email]);
    expect(rows).toHaveLength(0);
    // The same invite, once nothing refuses it, is mailed.
    expect((await inviteToOrg(admin, email)).statusCode).toBe(201);
    expect(await mailCount(email)).toBe(1);
  });
});

describe('balena-sdk invite models', () => {
  const sdkFor = async (token: string) => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(token);
    return sdk;
  };

  it('organization.invite.create / getAll / revoke / accept and application.invite.create / accept', async () => {
    const sdk = await sdkFor(admin.token);
    const email = freshEmail('sdk');
    const created = await sdk.models.organization.invite.create(admin.username, { invitee: email, roleName: 'member', message: 'hi from the sdk' });
    expect(created).toMatchObject({ invitee: { __id: expect.any(Number) }, message: 'hi from the sdk', organization_membership_role: { __id: orgRoles.member } });
    const all = await sdk.models.organization.invite.getAll({ $select: ['id', 'invitee'], $expand: { invitee: { $select: 'email' } } });
    expect(all).toContainEqual({ id: created.id, invitee: [{ email }] });
    const byOrg = await sdk.models.organization.invite.getAllByOrganization(admin.orgId);
    expect(byOrg.map((i) => i.id)).toContain(created.id);
    await sdk.models.organization.invite.revoke(created.id);
    expect((await sdk.models.organization.invite.getAll({ $select: 'id' })).map((i) => i.id)).not.toContain(created.id);

    await expect(sdk.models.organization.invite.create(admin.username, { invitee: 'nope', roleName: 'member' })).rejects.toThrow(/invalid_email/);

    const again = await sdk.models.organization.invite.create(admin.orgId, { invitee: email, roleName: 'member' });
    const invitee = await signUp(t.app, email);
    const inviteeSdk = await sdkFor(invitee.token);
    await inviteeSdk.models.organization.invite.accept((await mailTo(email)).token);
    expect(await orgRoleOf(invitee.userId, admin.orgId)).toBe('member');
    expect((await sdk.models.organization.invite.getAll({ $select: 'id' })).map((i) => i.id)).not.toContain(again.id);

    const fleetId = await fleet('SdkInviteFleet');
    const fleetEmail = freshEmail('sdkfleet');
    const appInvite = await sdk.models.application.invite.create(fleetId, { invitee: fleetEmail, roleName: 'operator', message: 'fleet!' });
    expect(appInvite).toMatchObject({ invitee: { __id: expect.any(Number) }, application_membership_role: { __id: fleetRoles.operator } });
    expect((await sdk.models.application.invite.getAllByApplication(fleetId)).map((i) => i.id)).toEqual([appInvite.id]);
    const fleetUser = await signUp(t.app, fleetEmail);
    await (await sdkFor(fleetUser.token)).models.application.invite.accept((await mailTo(fleetEmail)).token);
    expect(await fleetRoleOf(fleetUser.userId, fleetId)).toBe('operator');
  });
});
