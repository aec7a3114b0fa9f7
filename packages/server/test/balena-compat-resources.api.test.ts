import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, buildTestApp, sdkClient, signUp, type SignedUpUser, type TestApp } from './harness.js';

// Issue 12 (balena compatibility), resources and defaults: the published balena-sdk, as a
// balena user drives it, against a real server and PostgreSQL.
let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let sdk: ReturnType<typeof sdkClient>;
let appId: number;
let uuid: string;
let deviceId: number;

const hex = (n = 4) => randomBytes(n).toString('hex');

interface SdkFailure {
  code?: string;
  statusCode?: number;
  message: string;
}
async function failure(p: Promise<unknown>): Promise<SdkFailure> {
  try {
    await p;
  } catch (err) {
    return err as SdkFailure;
  }
  throw new Error('expected the call to fail');
}

async function clientFor(user: SignedUpUser): Promise<ReturnType<typeof sdkClient>> {
  const c = sdkClient(apiUrl);
  await c.auth.loginWithToken(user.token);
  return c;
}

async function roleName(table: string, id: number): Promise<string> {
  return (await t.db.query<{ name: string }>(`SELECT name FROM ${table} WHERE id = $1`, [id])).rows[0]!.name;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await signUp(t.app);
  sdk = await clientFor(owner);
  const app = await sdk.models.application.create({ name: `Compat${hex()}`, organization: owner.username, deviceType: 'raspberrypi3' });
  appId = app.id;
  const dt = await sdk.models.deviceType.get('raspberrypi3', { $select: 'id' });
  uuid = hex(16);
  deviceId = ((await sdk.pine.post({ resource: 'device', body: { uuid, belongs_to__application: appId, is_of__device_type: dt.id } })) as { id: number }).id;
});
afterAll(async () => {
  await t?.close();
});

describe('defaults balena fills in (item 4)', () => {
  it('a fleet invitation without a role invites a developer', async () => {
    const invite = (await sdk.models.application.invite.create(appId, { invitee: `fleet${hex()}@example.com` })) as unknown as {
      application_membership_role: { __id: number };
    };
    expect(await roleName('application_membership_role', invite.application_membership_role.__id)).toBe('developer');
  });

  it('an organization invitation without a role invites a member', async () => {
    const invite = (await sdk.models.organization.invite.create(owner.orgId, { invitee: `org${hex()}@example.com` })) as unknown as {
      organization_membership_role: { __id: number };
    };
    expect(await roleName('organization_membership_role', invite.organization_membership_role.__id)).toBe('member');
  });

  it('a fleet membership without a role makes a developer', async () => {
    const colleague = await signUp(t.app);
    await addOrganizationMember(t.db, colleague.userId, owner.orgId);
    const membership = (await sdk.models.application.membership.create({ application: appId, username: colleague.username })) as unknown as {
      application_membership_role: { __id: number };
    };
    expect(await roleName('application_membership_role', membership.application_membership_role.__id)).toBe('developer');
    // A role that is named still wins.
    const other = await signUp(t.app);
    await addOrganizationMember(t.db, other.userId, owner.orgId);
    const observer = (await sdk.models.application.membership.create({ application: appId, username: other.username, roleName: 'observer' })) as unknown as {
      application_membership_role: { __id: number };
    };
    expect(await roleName('application_membership_role', observer.application_membership_role.__id)).toBe('observer');
  });
});

describe('writes naming a parent the caller cannot see (item 5)', () => {
  it('tags and variables of a missing or foreign parent raise balena-sdk not-found errors', async () => {
    const stranger = await signUp(t.app);
    const theirs = await clientFor(stranger);
    const cases: [string, () => Promise<unknown>, string][] = [
      ['BalenaApplicationNotFound', () => sdk.models.application.tags.set(999999, 'k', 'v'), 'Application not found: 999999'],
      ['BalenaApplicationNotFound', () => theirs.models.application.tags.set(appId, 'k', 'v'), `Application not found: ${appId}`],
      ['BalenaDeviceNotFound', () => sdk.models.device.tags.set(999999, 'k', 'v'), 'Device not found: 999999'],
      ['BalenaDeviceNotFound', () => theirs.models.device.tags.set(deviceId, 'k', 'v'), `Device not found: ${deviceId}`],
      ['BalenaReleaseNotFound', () => sdk.models.release.tags.set(999999, 'k', 'v'), 'Release not found: 999999'],
      ['BalenaApplicationNotFound', () => sdk.models.application.envVar.set(999999, 'K', 'v'), 'Application not found: 999999'],
      ['BalenaApplicationNotFound', () => sdk.models.application.configVar.set(999999, 'BALENA_K', 'v'), 'Application not found: 999999'],
      ['BalenaApplicationNotFound', () => sdk.models.application.buildVar.set(999999, 'K', 'v'), 'Application not found: 999999'],
      ['BalenaDeviceNotFound', () => sdk.models.device.envVar.set(999999, 'K', 'v'), 'Device not found: 999999'],
      ['BalenaDeviceNotFound', () => theirs.models.device.envVar.set(deviceId, 'K', 'v'), `Device not found: ${deviceId}`],
      ['BalenaDeviceNotFound', () => sdk.models.device.configVar.set(999999, 'BALENA_K', 'v'), 'Device not found: 999999'],
      ['BalenaServiceNotFound', () => sdk.models.service.var.set(999999, 'K', 'v'), 'Service not found: 999999'],
      // The SDK looks the service install up by (device, service) itself and names the service.
      ['BalenaServiceNotFound', () => sdk.models.device.serviceVar.set(999999, 5, 'K', 'v'), 'Service not found: 5'],
    ];
    for (const [code, call, message] of cases) {
      const err = await failure(call());
      expect({ code: err.code, message: err.message }).toEqual({ code, message });
    }
  });
});

describe("a device's API keys (item 8)", () => {
  it('users who may read the device list its keys without the key; another organization sees none', async () => {
    await sdk.models.device.generateDeviceKey(uuid, 'field-key', 'for the installer');
    const keys = await sdk.models.apiKey.getDeviceApiKeysByDevice(uuid);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'field-key', description: 'for the installer', expiry_date: null });
    expect(keys[0]!.created_at).toEqual(expect.any(String));
    expect(keys[0]).not.toHaveProperty('key');
    expect(await failure(sdk.models.apiKey.getDeviceApiKeysByDevice(uuid, { $select: ['key'] } as never))).toMatchObject({ statusCode: 400 });

    // An observer of the fleet reads them too.
    const observer = await signUp(t.app);
    await addOrganizationMember(t.db, observer.userId, owner.orgId);
    await sdk.models.application.membership.create({ application: appId, username: observer.username, roleName: 'observer' });
    expect((await (await clientFor(observer)).models.apiKey.getDeviceApiKeysByDevice(uuid)).map((k) => k.name)).toEqual(['field-key']);

    // A user of another organization cannot read the device, nor its keys by actor.
    const stranger = await signUp(t.app);
    const theirs = await clientFor(stranger);
    expect((await failure(theirs.models.apiKey.getDeviceApiKeysByDevice(uuid))).code).toBe('BalenaDeviceNotFound');
    const actor = (await t.db.query<{ actor: number }>('SELECT actor FROM device WHERE id = $1', [deviceId])).rows[0]!.actor;
    expect(await theirs.pine.get({ resource: 'api_key', options: { $filter: { is_of__actor: actor } } })).toEqual([]);
  });
});

describe('error texts balena-sdk users match on (item 11)', () => {
  it('a too-short fleet name is refused in balena’s words', async () => {
    const err = await failure(sdk.models.application.create({ name: 'Foo', organization: owner.username, deviceType: 'raspberrypi3' }));
    expect({ code: err.code, statusCode: err.statusCode, message: err.message }).toEqual({
      code: 'BalenaRequestError',
      statusCode: 400,
      message:
        'Request error: It is necessary that each application has an app name that has a Length (Type) that is greater than or equal to 4 and is less than or equal to 100.',
    });
    const renamed = await failure(sdk.models.application.rename(appId, 'ab'));
    expect(renamed.message).toBe(
      'Request error: It is necessary that each application has an app name that has a Length (Type) that is greater than or equal to 4 and is less than or equal to 100.',
    );
  });

  it('removing the last administrator is refused in balena’s words', async () => {
    const [mine] = await sdk.models.organization.membership.getAllByOrganization(owner.orgId, { $select: 'id' });
    const err = await failure(sdk.models.organization.membership.remove(mine!.id));
    expect({ code: err.code, statusCode: err.statusCode, message: err.message }).toEqual({
      code: 'BalenaRequestError',
      statusCode: 400,
      message:
        'Request error: It is necessary that each organization that is active, includes at least one organization membership that has an organization membership role that has a name (Auth) that is equal to "administrator".',
    });
    const demoted = await failure(sdk.models.organization.membership.changeRole(mine!.id, 'member'));
    expect(demoted.message).toBe(err.message);
  });
});

describe('organization membership tags (item 3)', () => {
  it('administrators set, list, read and remove tags on members through balena-sdk; members read; strangers see nothing', async () => {
    const tags = sdk.models.organization.membership.tags;
    const member = await signUp(t.app);
    const memberMembership = await addOrganizationMember(t.db, member.userId, owner.orgId);
    const [mine] = await sdk.models.organization.membership.getAllByOrganization(owner.orgId, { $select: 'id', $filter: { user: owner.userId } });

    await tags.set(memberMembership, 'EDITOR', 'vim');
    await tags.set(memberMembership, 'EDITOR', 'emacs'); // an upsert: the duplicate POST becomes a PATCH
    await tags.set(memberMembership, 'DESK', '4B');
    await tags.set(mine!.id, 'EDITOR', 'nano');
    const pairs = (list: { tag_key: string; value: string }[]) => list.map((x) => [x.tag_key, x.value]);
    expect(pairs(await tags.getAllByOrganizationMembership(memberMembership))).toEqual([
      ['DESK', '4B'],
      ['EDITOR', 'emacs'],
    ]);
    expect(pairs(await tags.getAllByOrganization(owner.username))).toEqual(
      expect.arrayContaining([
        ['DESK', '4B'],
        ['EDITOR', 'emacs'],
        ['EDITOR', 'nano'],
      ]),
    );
    const [one] = await tags.getAllByOrganizationMembership(memberMembership, { $select: ['organization_membership', 'tag_key'], $filter: { tag_key: 'DESK' } });
    expect(one).toEqual({ organization_membership: { __id: memberMembership }, tag_key: 'DESK' });
    await tags.remove(memberMembership, 'DESK');
    expect(pairs(await tags.getAllByOrganizationMembership(memberMembership))).toEqual([['EDITOR', 'emacs']]);

    // The tag key rules of every tag table apply.
    expect((await failure(tags.set(memberMembership, 'io.balena.x', 'v'))).message).toBe('Request error: Tag keys beginning with io.balena. are reserved.');

    // A member reads the organization's member tags but may not write them.
    const asMember = await clientFor(member);
    expect(pairs(await asMember.models.organization.membership.tags.getAllByOrganization(owner.orgId))).toHaveLength(2);
    expect((await failure(asMember.models.organization.membership.tags.set(memberMembership, 'EDITOR', 'ed'))).statusCode).toBe(401);

    // Someone of another organization neither reads nor writes them.
    const stranger = await signUp(t.app);
    const theirs = await clientFor(stranger);
    expect(await theirs.pine.get({ resource: 'organization_membership_tag' })).toEqual([]);
    expect((await failure(theirs.pine.post({ resource: 'organization_membership_tag', body: { organization_membership: memberMembership, tag_key: 'X', value: 'y' } }))).statusCode).toBe(401);

    // Tags go with their membership.
    await sdk.models.organization.membership.remove(memberMembership);
    expect(await tags.getAllByOrganization(owner.orgId)).toEqual([expect.objectContaining({ tag_key: 'EDITOR', value: 'nano' })]);
  });
});

describe('image build logs (item 3)', () => {
  it('an image read leaves build_log out unless $select names it, as balena does', async () => {
    const serviceId = ((await sdk.pine.post({ resource: 'service', body: { application: appId, service_name: `svc${hex()}` } })) as { id: number }).id;
    const image = (await sdk.pine.post({
      resource: 'image',
      body: { is_a_build_of__service: serviceId, status: 'success', build_log: 'Step 1/2 : FROM alpine\nStep 2/2 : RUN true\n' },
    })) as { id: number };
    const releaseId = ((await sdk.pine.post({ resource: 'release', body: { belongs_to__application: appId, commit: hex(16), status: 'success', composition: {} } })) as { id: number }).id;
    await sdk.pine.post({ resource: 'release_image', body: { image: image.id, is_part_of__release: releaseId } });

    const read = await sdk.models.image.get(image.id);
    expect(read).toMatchObject({ id: image.id, status: 'success', is_a_build_of__service: { __id: serviceId } });
    expect(read).not.toHaveProperty('build_log');
    expect(image).not.toHaveProperty('build_log'); // the POST's answer reads as a GET does

    expect(await sdk.models.image.getLogs(image.id)).toBe('Step 1/2 : FROM alpine\nStep 2/2 : RUN true\n');
    expect(await sdk.models.image.get(image.id, { $select: ['id', 'build_log'] })).toEqual({ id: image.id, build_log: expect.stringContaining('FROM alpine') });

    // Expanded images too.
    const release = await sdk.models.release.get(releaseId, { $select: 'id', $expand: { release_image: { $select: 'id', $expand: { image: {} } } } });
    const expanded = (release as unknown as { release_image: { image: Record<string, unknown>[] }[] }).release_image[0]!.image[0]!;
    expect(expanded).toMatchObject({ id: image.id, status: 'success' });
    expect(expanded).not.toHaveProperty('build_log');
    // A filter may still name it.
    expect(await sdk.pine.get({ resource: 'image', options: { $select: 'id', $filter: { id: image.id, build_log: { $contains: 'alpine' } } } })).toEqual([{ id: image.id }]);
  });
});

describe('invitees (item 3)', () => {
  it('invites navigate to an invitee holding the e-mail, as balena-sdk expands it', async () => {
    const email = `Invitee${hex()}@Example.com`;
    const orgInvite = (await sdk.models.organization.invite.create(owner.orgId, { invitee: email, roleName: 'member' })) as unknown as {
      id: number;
      invitee: { __id: number };
    };
    expect(orgInvite.invitee).toEqual({ __id: expect.any(Number) });
    const fleetInvite = (await sdk.models.application.invite.create(appId, { invitee: email.toLowerCase(), roleName: 'observer' })) as unknown as {
      invitee: { __id: number };
    };
    // One invitee per address, compared case-insensitively.
    expect(fleetInvite.invitee).toEqual(orgInvite.invitee);

    const listed = await sdk.models.organization.invite.getAllByOrganization(owner.orgId, {
      $select: ['id', 'invitee'],
      $expand: { invitee: { $select: ['email'] } },
    });
    expect(listed).toContainEqual({ id: orgInvite.id, invitee: [{ email }] });
    const all = await sdk.models.application.invite.getAll({ $expand: { invitee: { $select: 'email' } }, $filter: { is_invited_to__application: appId } });
    expect(all.map((i) => (i.invitee as unknown as { email: string }[])[0]!.email)).toContain(email);
    expect(
      await sdk.pine.get({ resource: 'invitee', options: { $select: 'email', $filter: { invitee__is_invited_to__organization: { $any: { $alias: 'i', $expr: { i: { id: orgInvite.id } } } } } } }),
    ).toEqual([{ email }]);

    // Someone of another organization reads neither the invites nor their invitees.
    const theirs = await clientFor(await signUp(t.app));
    expect(await theirs.pine.get({ resource: 'invitee', options: { $select: 'email' } })).toEqual([]);
    // A client cannot point an invite at an invitee row by id: the invitee is an address.
    const byId = await failure(sdk.pine.post({ resource: 'invitee__is_invited_to__organization', body: { invitee: orgInvite.invitee.__id, is_invited_to__organization: owner.orgId } }));
    expect(byId.message).toBe('Request error: invalid_email');
  });
});
