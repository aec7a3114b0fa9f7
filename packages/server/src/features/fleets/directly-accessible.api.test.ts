import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// balena-sdk's "directly accessible" fleet calls filter on the computed navigation
// application.is_directly_accessible_by__user (CALLER_NAVIGATIONS in the model): fleets the
// caller reaches through their own organization or fleet roles, not public ones.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let member: SignedUpUser;
let stranger: SignedUpUser;
let ownFleet: number;
let publicFleet: number;

const sdkAs = async (user: SignedUpUser) => {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(user.token);
  return sdk;
};
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
/** Without the platform's public host OS catalogue (issue 17), which everybody reads too. */
const ownIds = async (rows: { id: number }[]) => {
  const catalogue = new Set(
    (await t.db.query<{ id: number }>(`SELECT a.id FROM application a JOIN organization o ON o.id = a.organization WHERE o.handle = 'balena_os'`)).rows.map((r) => r.id),
  );
  expect(catalogue.size).toBeGreaterThan(0);
  return ids(rows.filter((r) => !catalogue.has(r.id)));
};

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, member, stranger] = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
  const sdk = await sdkAs(owner);
  ownFleet = (await sdk.models.application.create({ name: 'DirectOwn', organization: owner.username, deviceType: 'raspberrypi3' })).id;
  publicFleet = (await sdk.models.application.create({ name: 'DirectPublic', organization: owner.username, deviceType: 'raspberrypi3' })).id;
  const made = await t.app.inject({ method: 'PATCH', url: `/v7/application(${publicFleet})`, headers: bearer(owner.token), payload: { is_public: true } });
  expect(made.statusCode).toBe(200);
  // `member` gets one fleet through a fleet membership (an organization member first).
  await addOrganizationMember(t.db, member.userId, owner.orgId);
  const observer = (await sdk.pine.get({ resource: 'application_membership_role', id: { name: 'observer' }, options: { $select: 'id' } }))!.id;
  await sdk.pine.post({ resource: 'user_application_membership', body: { user: member.userId, is_member_of__application: ownFleet, application_membership_role: observer } });
});
afterAll(async () => {
  await t.close();
});

describe('directly accessible fleets', () => {
  it('lists the fleets of the caller’s own roles, not the public ones everybody can read', async () => {
    const sdk = await sdkAs(owner);
    expect(await ownIds(await sdk.models.application.getAll({ $select: 'id' }))).toEqual([ownFleet, publicFleet]);
    expect(ids(await sdk.models.application.getAllDirectlyAccessible({ $select: 'id' }))).toEqual([ownFleet, publicFleet]);

    const memberSdk = await sdkAs(member);
    expect(await ownIds(await memberSdk.models.application.getAll({ $select: 'id' }))).toEqual([ownFleet, publicFleet]);
    expect(ids(await memberSdk.models.application.getAllDirectlyAccessible({ $select: 'id' }))).toEqual([ownFleet]);
    expect((await memberSdk.models.application.getDirectlyAccessible(ownFleet, { $select: 'app_name' })).app_name).toBe('DirectOwn');
    await expect(memberSdk.models.application.getDirectlyAccessible(publicFleet)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });

    const strangerSdk = await sdkAs(stranger);
    expect(ids(await strangerSdk.models.application.getAll({ $select: 'id' }))).toContain(publicFleet);
    expect(await strangerSdk.models.application.getAllDirectlyAccessible({ $select: 'id' })).toEqual([]);
    expect(await strangerSdk.models.application.hasAny()).toBe(false);
    expect(await memberSdk.models.application.hasAny()).toBe(true);
  });

  it('leads only to the caller’s own user row, whatever the lambda asks', async () => {
    const get = async (user: SignedUpUser, query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/v7/application?${query}`, headers: bearer(user.token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ d: Record<string, unknown>[] }>().d;
    };
    // Expanded, the navigation holds the caller and nobody else.
    const expanded = await get(member, `$select=id&$filter=id eq ${ownFleet}&$expand=is_directly_accessible_by__user($select=id,username)`);
    expect(expanded).toEqual([{ id: ownFleet, is_directly_accessible_by__user: [{ id: member.userId, username: member.username }] }]);
    // Asking about another user finds nothing: the owner cannot probe who else has access.
    const probe = await get(owner, `$select=id&$filter=is_directly_accessible_by__user/any(u:u/username eq '${member.username}')`);
    expect(probe).toEqual([]);
    // $count and all() work as on any collection.
    const counted = await get(member, `$select=id&$filter=is_directly_accessible_by__user/$count eq 1`);
    expect(ids(counted as { id: number }[])).toEqual([ownFleet]);
    const none = await get(stranger, `$select=id&$filter=id eq ${publicFleet} and is_directly_accessible_by__user/any(u:true)`);
    expect(none).toEqual([]);
  });

  it('is a collection: a path through it is refused', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v7/application?$filter=is_directly_accessible_by__user/username eq 'x'`,
      headers: bearer(owner.token),
    });
    expect(res.statusCode).toBe(400);
  });
});
