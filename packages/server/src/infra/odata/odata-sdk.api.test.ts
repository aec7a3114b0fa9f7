import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, removeOsCatalogue, signUp, type SignedUpUser, type TestApp, sdkClient } from '../../../test/harness.js';

// The data API through the published balena-sdk's pine client over real HTTP: the URLs
// exactly as pinejs-client encodes them (dialect §2), and the response shapes it expects.

let t: TestApp;
let apiUrl: string;
let alice: SignedUpUser;
let fleetId: number;

// The SDK's pine types describe balena-cloud's model; these tests speak our model, so
// they use the client untyped.
interface Pine {
  get(params: object): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  post(params: object): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  patch(params: object): Promise<unknown>;
}
const sdkAs = async (token?: string): Promise<{ pine: Pine }> => {
  const sdk = sdkClient(apiUrl);
  if (token) await sdk.auth.loginWithToken(token);
  return { pine: sdk.pine as unknown as Pine };
};

beforeAll(async () => {
  t = await buildTestApp();
  // This file compares every application a caller reads with the ones it made.
  await removeOsCatalogue(t.db);
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  alice = await signUp(t.app);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO application (actor, app_name, slug, uuid, organization, is_for__device_type)
     VALUES ($1, $2, $3, $4, $5, (SELECT id FROM device_type WHERE slug = 'raspberrypi3')) RETURNING id`,
    [alice.actorId, "it's & 100% ok", `${alice.username}/x`, randomBytes(16).toString('hex'), alice.orgId],
  );
  fleetId = rows[0]!.id;
});
afterAll(async () => {
  await t.close();
});

describe('pine over the wire', () => {
  it('finds a device type by alias with a lambda, as application.create does', async () => {
    const sdk = await sdkAs(alice.token);
    const rows = await sdk.pine.get({
      resource: 'device_type',
      options: {
        $select: ['id', 'id', 'slug'],
        $top: 1,
        $orderby: 'name asc',
        $filter: { device_type_alias: { $any: { $alias: 'dta', $expr: { dta: { is_referenced_by__alias: 'raspberrypi' } } } } },
      },
    });
    expect(rows).toEqual([{ id: expect.any(Number), slug: 'raspberry-pi' }]);
  });

  it("round-trips strings with quotes, & and % in $filter", async () => {
    const sdk = await sdkAs(alice.token);
    const rows = await sdk.pine.get({ resource: 'application', options: { $select: 'id', $filter: { app_name: "it's & 100% ok" } } });
    expect(rows).toEqual([{ id: fleetId }]);
  });

  it('reads by id and by alternate key, expanding a to-one navigation as an array', async () => {
    const sdk = await sdkAs(alice.token);
    const byId = await sdk.pine.get({ resource: 'application', id: fleetId, options: { $select: ['id', 'organization'], $expand: { organization: { $select: 'handle' } } } });
    expect(byId).toEqual({ id: fleetId, organization: [{ handle: alice.username }] });
    const org = await sdk.pine.get({ resource: 'organization', id: { handle: alice.username }, options: { $select: 'id' } });
    expect(org).toEqual({ id: alice.orgId });
    expect(await sdk.pine.get({ resource: 'application', id: 999999 })).toBeUndefined();
  });

  it('counts at the top and inside $expand, with $in, $ne, $or and $not', async () => {
    const sdk = await sdkAs(alice.token);
    const n = await sdk.pine.get({ resource: 'device_type', options: { $count: { $filter: { slug: { $in: ['fincm3', 'intel-nuc'] } } } } });
    expect(n).toBe(2);
    const [dt] = await sdk.pine.get({
      resource: 'device_type',
      options: {
        $select: 'slug',
        $filter: { $and: [{ slug: { $ne: 'x' } }, { $or: [{ slug: 'raspberrypi4-64' }, { slug: 'nope' }] }, { $not: { slug: 'fincm3' } }] },
        $expand: { device_type_alias: { $count: { $filter: { is_referenced_by__alias: { $startswith: 'rasp' } } } } },
      },
    });
    expect(dt).toEqual({ slug: 'raspberrypi4-64', device_type_alias: 2 });
  });

  it('writes: post returns the entity with {__id} references; patch and delete by filter', async () => {
    const sdk = await sdkAs(alice.token);
    const created = await sdk.pine.post({ resource: 'organization', body: { name: 'SDK Org', handle: `sdk_org_${process.pid}` } });
    expect(created).toMatchObject({ name: 'SDK Org', handle: `sdk_org_${process.pid}` });
    await sdk.pine.patch({ resource: 'user', id: alice.userId, body: { company: 'Flotilla' } });
    const [me] = await sdk.pine.get({ resource: 'user', options: { $select: ['company', 'actor'] } });
    expect(me).toEqual({ company: 'Flotilla', actor: { __id: alice.actorId } });
  });

  it('surfaces our errors as the SDK error texts', async () => {
    const sdk = await sdkAs(alice.token);
    await expect(sdk.pine.get({ resource: 'user', options: { $select: ['password'] } })).rejects.toMatchObject({
      message: "Request error: Unknown field 'password' on resource 'user'",
    });
    const anonymous = await sdkAs();
    await expect(anonymous.pine.get({ resource: 'user', options: { $select: 'id' } })).rejects.toMatchObject({ code: 'BalenaNotLoggedIn' });
    expect(await anonymous.pine.get({ resource: 'application', options: { $select: 'id' } })).toEqual([]);
  });
});
