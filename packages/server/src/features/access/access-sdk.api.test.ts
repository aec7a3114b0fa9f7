import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type TestApp, sdkClient } from '../../../test/harness.js';

// Fleet memberships through the published balena-sdk (application.membership.*).
let t: TestApp;
let apiUrl: string;
const sdkFor = () => sdkClient(apiUrl);

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

describe('balena-sdk fleet memberships', () => {
  it('creates, lists, changes and removes a membership by username and role name', async () => {
    const owner = await signUp(t.app);
    const member = await signUp(t.app);
    const sdk = sdkFor();
    await sdk.auth.loginWithToken(owner.token);
    await addOrganizationMember(t.db, member.userId, owner.orgId);
    const app = await sdk.models.application.create({ name: 'SdkShared', organization: owner.username, deviceType: 'raspberrypi3' });

    // (application.membership.create, which looks the user up through the organization's
    // memberships, is in user-privacy.test.ts.)
    const developer = (await sdk.pine.get({ resource: 'application_membership_role', id: { name: 'developer' }, options: { $select: 'id' } }))!.id;
    const created = (await sdk.pine.post({
      resource: 'user_application_membership',
      body: { user: member.userId, is_member_of__application: app.id, application_membership_role: developer },
    })) as { id: number; user: { __id: number } };
    expect(created.user).toEqual({ __id: member.userId });

    const memberSdk = sdkFor();
    await memberSdk.auth.loginWithToken(member.token);
    expect((await memberSdk.models.application.get(app.id, { $select: 'app_name' })).app_name).toBe('SdkShared');
    await memberSdk.models.application.rename(app.id, 'SdkRenamed');
    await expect(memberSdk.models.application.remove(app.id)).resolves.toBeUndefined(); // not allowed: a no-op
    expect((await t.app.inject({ method: 'GET', url: `/v7/application(${app.id})?$select=app_name`, headers: bearer(owner.token) })).json().d).toEqual([
      { app_name: 'SdkRenamed' },
    ]);

    const all = await sdk.models.application.membership.getAllByApplication(app.id, {
      $select: 'id',
      $expand: { application_membership_role: { $select: 'name' } },
    });
    expect(all).toEqual([{ id: created.id, application_membership_role: [{ name: 'developer' }] }]);

    await sdk.models.application.membership.changeRole(created.id, 'observer');
    await memberSdk.models.application.rename(app.id, 'SdkRenamedAgain').catch(() => undefined);
    expect((await sdk.models.application.get(app.id, { $select: 'app_name' })).app_name).toBe('SdkRenamed');

    await sdk.models.application.membership.remove(created.id);
    await expect(memberSdk.models.application.get(app.id)).rejects.toMatchObject({ code: 'BalenaApplicationNotFound' });
  });
});
