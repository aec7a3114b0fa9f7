import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOrganizationMember, bearer, buildTestApp, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';

// Spec 1 §5: an organization logo is a png or jpeg of at most 1,000,000 bytes.
let t: TestApp;
let admin: SignedUpUser;
let member: SignedUpUser;
let stranger: SignedUpUser;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
const GIF = Buffer.from('GIF89a' + 'x'.repeat(50));

const put = (token: string, orgId: number, body: Buffer, type = 'image/png') =>
  t.app.inject({ method: 'PUT', url: `/organization/${orgId}/logo`, headers: { ...bearer(token), 'content-type': type }, payload: body });
const logoOf = async (orgId: number) => (await t.db.query<{ logo_image: string | null }>('SELECT logo_image FROM organization WHERE id = $1', [orgId])).rows[0]!.logo_image;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signUp(t.app);
  member = await signUp(t.app);
  stranger = await signUp(t.app);
  await addOrganizationMember(t.db, member.userId, admin.orgId);
});
afterAll(async () => {
  await t.close();
});

describe('organization logo', () => {
  it('an administrator uploads a png, then a jpeg, readable as a data URL; and removes it', async () => {
    expect((await put(admin.token, admin.orgId, PNG)).statusCode).toBe(204);
    expect(await logoOf(admin.orgId)).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    // The type comes from the bytes, not from the declared content type.
    expect((await put(admin.token, admin.orgId, JPEG, 'application/octet-stream')).statusCode).toBe(204);
    const read = await t.app.inject({ method: 'GET', url: `/v7/organization(${admin.orgId})?$select=logo_image`, headers: bearer(admin.token) });
    expect(read.json().d[0].logo_image).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
    const del = await t.app.inject({ method: 'DELETE', url: `/organization/${admin.orgId}/logo`, headers: bearer(admin.token) });
    expect(del.statusCode).toBe(204);
    expect(await logoOf(admin.orgId)).toBeNull();
  });

  it('refuses other image types and files over 1,000,000 bytes, changing nothing', async () => {
    await put(admin.token, admin.orgId, PNG);
    const before = await logoOf(admin.orgId);
    const gif = await put(admin.token, admin.orgId, GIF, 'image/png');
    expect(gif.statusCode).toBe(400);
    expect(gif.json()).toBe('The logo must be a png or jpeg image');
    const big = await put(admin.token, admin.orgId, Buffer.concat([PNG, Buffer.alloc(1_000_000)]));
    expect([400, 413]).toContain(big.statusCode);
    const exact = Buffer.concat([PNG, Buffer.alloc(1_000_001 - PNG.length)]);
    const justOver = await put(admin.token, admin.orgId, exact);
    expect(justOver.statusCode).toBe(400);
    expect(justOver.json()).toBe('The logo must be at most 1,000,000 bytes');
    const viaApi = await t.app.inject({ method: 'PATCH', url: `/v7/organization(${admin.orgId})`, headers: bearer(admin.token), payload: { logo_image: 'data:image/svg+xml;base64,PHN2Zz4=' } });
    expect(viaApi.statusCode).toBe(400);
    expect(await logoOf(admin.orgId)).toBe(before);
  });

  it('a member may not change it (401) and a stranger does not find the organization (404)', async () => {
    const before = await logoOf(admin.orgId);
    expect((await put(member.token, admin.orgId, JPEG)).statusCode).toBe(401);
    expect((await put(stranger.token, admin.orgId, JPEG)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/organization/${admin.orgId}/logo`, headers: { 'content-type': 'image/png' }, payload: JPEG })).statusCode).toBe(401);
    expect(await logoOf(admin.orgId)).toBe(before);
  });

  it('accepts a small logo as a data URL through the data API too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v7/organization', headers: bearer(admin.token), payload: { name: `logo-org-${admin.userId}`, logo_image: `data:image/png;base64,${PNG.toString('base64')}` } });
    expect(res.statusCode).toBe(201);
    expect(res.json().logo_image).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });
});
