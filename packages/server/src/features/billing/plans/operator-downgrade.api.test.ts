import { BILLING_LIMIT_MESSAGES } from '@flotilla/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../../test/harness.js';
import { subscribe } from '../../../../test/support/billing-catalogue.js';
import { createFleet, hex, row } from '../../../../test/support/fleet-helpers.js';

/*
 * Issue 18 (operator seats after a downgrade): accepting an operator invitation grants the
 * role now, so it is refused once the organization's plan has no operator seats; a change to
 * such a plan lowers existing operators (members and team access) to observers. Real
 * PostgreSQL, the real balena-sdk over HTTP, billing on.
 */

let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let operator: SignedUpUser; // an operator of the fleet while the plan is paid
let teamMate: SignedUpUser; // an operator through a team
let fleet: number;
let team: number;

async function sdkAs(user: SignedUpUser) {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
}
let mails = 0;
const freshEmail = (label: string) => `${label}.${process.pid}.${++mails}.${hex(2)}@example.com`;

/** The accept token of the last invitation mail to `to` (the durable outbox). */
async function inviteToken(to: string): Promise<string> {
  const mail = await row<{ text_body: string }>(t.db, `SELECT text_body FROM email_outbox WHERE recipient = $1 AND text_body LIKE '%invitation/%' ORDER BY id DESC LIMIT 1`, [to]);
  const m = /invitation\/([A-Za-z0-9_-]{43})/.exec(mail?.text_body ?? '');
  if (!m) throw new Error(`no invitation mail to ${to}`);
  return m[1]!;
}

const fleetRoleOf = async (userId: number) =>
  (await row<{ name: string }>(t.db, 'SELECT r.name FROM user_application_membership m JOIN application_membership_role r ON r.id = m.application_membership_role WHERE m."user" = $1 AND m.is_member_of__application = $2', [userId, fleet]))?.name;
const teamRole = async () =>
  (await row<{ name: string }>(t.db, 'SELECT r.name FROM team_application_access a JOIN application_membership_role r ON r.id = a.application_membership_role WHERE a.team = $1', [team]))!.name;
const seatOf = async (userId: number) => (await row<{ seat: string | null }>(t.db, 'SELECT effective_seat_role AS seat FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [userId, owner.orgId]))?.seat;
const roleId = async (name: string) => (await row<{ id: number }>(t.db, 'SELECT id FROM application_membership_role WHERE name = $1', [name]))!.id;

beforeAll(async () => {
  t = await buildTestApp({ billing: { enabled: true } });
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, operator, teamMate] = await Promise.all([signUp(t.app), signUp(t.app, freshEmail('operator')), signUp(t.app, freshEmail('teammate'))]);
  await subscribe(t.db, owner.orgId, 'pilot-v2');
  fleet = await createFleet(t.app, t.db, owner, `Ops${hex(3)}`);
  const sdk = await sdkAs(owner);
  // On the paid plan: an operator by invitation, and a team with operator access.
  await sdk.models.application.invite.create(fleet, { invitee: operator.email, roleName: 'operator' });
  await (await sdkAs(operator)).models.application.invite.accept(await inviteToken(operator.email));
  expect(await fleetRoleOf(operator.userId)).toBe('operator');
  await sdk.models.organization.invite.create(owner.orgId, { invitee: teamMate.email, roleName: 'member' });
  await (await sdkAs(teamMate)).models.organization.invite.accept(await inviteToken(teamMate.email));
  const created = await t.app.inject({ method: 'POST', url: '/v7/team', headers: bearer(owner.token), payload: { name: 'Night shift', belongs_to__organization: owner.orgId } });
  expect(created.statusCode, created.body).toBe(201);
  team = created.json<{ id: number }>().id;
  const access = await t.app.inject({ method: 'POST', url: '/v7/team_application_access', headers: bearer(owner.token), payload: { team, grants_access_to__application: fleet, application_membership_role: await roleId('operator') } });
  expect(access.statusCode, access.body).toBe(201);
  const joined = await t.app.inject({ method: 'POST', url: '/v7/team_membership', headers: bearer(owner.token), payload: { user: teamMate.userId, is_member_of__team: team } });
  expect(joined.statusCode, joined.body).toBe(201);
  expect(await seatOf(teamMate.userId)).toBe('operator');
});

afterAll(async () => {
  await t?.close();
});

describe('operators after a downgrade', () => {
  let pendingEmail: string;

  it('a change to a plan without operators lowers the operators (members, team access, seat roles) to observers', async () => {
    pendingEmail = freshEmail('pending');
    // Sent on the paid plan, accepted later.
    await (await sdkAs(owner)).models.application.invite.create(fleet, { invitee: pendingEmail, roleName: 'operator' });
    const down = await t.app.inject({ method: 'PATCH', url: `/billing/v1/account/${owner.orgId}/plan`, headers: bearer(owner.token), payload: { tier: 'free', annual: false, planChangeReason: 'smaller team' } });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({ outcome: 'downgrade', loweredOperators: 2 });
    expect(await fleetRoleOf(operator.userId)).toBe('observer');
    expect(await teamRole()).toBe('observer');
    expect(await seatOf(teamMate.userId)).toBe('observer');
    expect((await (await sdkAs(owner)).models.billing.getPlan(owner.orgId)).code).toBe('free');
  });

  it('refuses an operator invitation at acceptance (400, the invitee is told to ask an administrator), writing nothing and keeping the invitation', async () => {
    const invitee = await signUp(t.app, pendingEmail);
    const token = await inviteToken(pendingEmail);
    const inviteeSdk = await sdkAs(invitee);
    await expect(inviteeSdk.models.application.invite.accept(token)).rejects.toThrow(BILLING_LIMIT_MESSAGES.operatorInvitationNeedsPaidPlan);
    const res = await t.app.inject({ method: 'POST', url: `/user/v1/invitation/${token}`, headers: bearer(invitee.token) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toBe(BILLING_LIMIT_MESSAGES.operatorInvitationNeedsPaidPlan);
    expect(await fleetRoleOf(invitee.userId)).toBeUndefined();
    expect(await seatOf(invitee.userId)).toBeUndefined();
    expect(await row(t.db, 'SELECT 1 FROM invitee__is_invited_to__application WHERE is_invited_to__application = $1', [fleet])).toEqual({ '?column?': 1 });

    // Another role is accepted on the free plan.
    const devEmail = freshEmail('developer');
    await (await sdkAs(owner)).models.application.invite.create(fleet, { invitee: devEmail, roleName: 'developer' });
    const dev = await signUp(t.app, devEmail);
    await (await sdkAs(dev)).models.application.invite.accept(await inviteToken(devEmail));
    expect(await fleetRoleOf(dev.userId)).toBe('developer');

    // Nor can the role be given back through a membership or a team while the plan has no operators.
    const membership = (await row<{ id: number }>(t.db, 'SELECT id FROM user_application_membership WHERE "user" = $1 AND is_member_of__application = $2', [operator.userId, fleet]))!.id;
    const patch = await t.app.inject({ method: 'PATCH', url: `/v7/user_application_membership(${membership})`, headers: bearer(owner.token), payload: { application_membership_role: await roleId('operator') } });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toBe(BILLING_LIMIT_MESSAGES.operatorNeedsPaidPlan);
    const teamPatch = await t.app.inject({ method: 'PATCH', url: `/v7/team_application_access?$filter=team eq ${team}`, headers: bearer(owner.token), payload: { application_membership_role: await roleId('operator') } });
    expect(teamPatch.statusCode).toBe(400);
    expect(await fleetRoleOf(operator.userId)).toBe('observer');
    expect(await teamRole()).toBe('observer');

    // After an upgrade the same invitation is accepted, with its role.
    await subscribe(t.db, owner.orgId, 'pilot-v2');
    await inviteeSdk.models.application.invite.accept(token);
    expect(await fleetRoleOf(invitee.userId)).toBe('operator');
  });

  it('does not let another organization’s user accept someone else’s invitation, nor lower anyone elsewhere', async () => {
    const other = await signUp(t.app);
    const otherFleet = await createFleet(t.app, t.db, other, `Else${hex(3)}`);
    await subscribe(t.db, other.orgId, 'pilot-v2');
    const email = freshEmail('elsewhere');
    await (await sdkAs(other)).models.application.invite.create(otherFleet, { invitee: email, roleName: 'operator' });
    const token = await inviteToken(email);
    // The first organization going to free again lowers only its own operators.
    expect((await t.app.inject({ method: 'PATCH', url: `/billing/v1/account/${owner.orgId}/plan`, headers: bearer(owner.token), payload: { tier: 'free', annual: false } })).statusCode).toBe(200);
    const wrongUser = await t.app.inject({ method: 'POST', url: `/user/v1/invitation/${token}`, headers: bearer(owner.token) });
    expect(wrongUser.statusCode).toBe(403);
    const invitee = await signUp(t.app, email);
    await (await sdkAs(invitee)).models.application.invite.accept(token);
    expect((await row<{ name: string }>(t.db, 'SELECT r.name FROM user_application_membership m JOIN application_membership_role r ON r.id = m.application_membership_role WHERE m."user" = $1', [invitee.userId]))!.name).toBe('operator');
  });
});
