import { createHash, randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpUser } from '../../../test/harness.js';
import { podman, removeLabelled } from '../../../test/support/engine.js';
import { createFleet, giveFleetRole, hex } from '../../../test/support/fleet-helpers.js';
import { buildTestImage, createReleaseImage, registryToken, startRegistryServer, tokenAccess, type CreatedImage, type RegistryServer } from '../../../test/support/registry.js';
import { testEngine } from '../../../test/support/test-engine.js';

/**
 * The embedded registry with real clients (podman against the run's engine configuration)
 * and the HTTP API driven directly for what a client does not show (resumed uploads, bad
 * input). Tokens come from /auth/v1/token, whose grants follow the model's permissions.
 */

const engine = testEngine();
const testId = `registry-${randomBytes(4).toString('hex')}`;
const dir = `/tmp/flotilla-registry-test-${testId}`;
let s: RegistryServer;
let owner: SignedUpUser;
let developer: SignedUpUser;
let observer: SignedUpUser;
let stranger: SignedUpUser;
let fleet: number;
let strangerFleet: number;
let image: CreatedImage;
let strangerImage: CreatedImage;
let deviceKey: string;
let deviceUuid: string;
let strangerDeviceKey: string;
let strangerDeviceUuid: string;

const sha = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const basic = (u: SignedUpUser) => ({ username: u.username, password: u.token });

async function newDevice(token: string, fleetId: number): Promise<{ uuid: string; key: string }> {
  const prov = await s.app.inject({
    method: 'POST',
    url: '/api-key/v2/',
    headers: { authorization: `Bearer ${token}` },
    payload: { actorType: 'application', actorTypeId: fleetId, roles: ['provisioning-api-key'] },
  });
  const uuid = hex();
  const res = await s.app.inject({
    method: 'POST',
    url: '/device/register',
    headers: { authorization: `Bearer ${prov.json<string>()}` },
    payload: { application: fleetId, uuid, device_type: 'raspberrypi3' },
  });
  if (res.statusCode !== 201) throw new Error(`register: ${res.statusCode} ${res.body}`);
  return { uuid, key: res.json<{ api_key: string }>().api_key };
}

/** A request to the registry with a bearer token. */
async function reg(method: string, path: string, token: string | null, init: { body?: Buffer | string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${s.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : new Uint8Array(init.body) } : {}),
  });
}

const pushToken = async (repository = image.repository, u = owner) => (await registryToken(s.url, basic(u), [`repository:${repository}:pull,push`])).token;

beforeAll(async () => {
  s = await startRegistryServer({ dir, blobMaxBytes: 8 * 1024 * 1024 });
  owner = await signUp(s.app);
  developer = await signUp(s.app);
  observer = await signUp(s.app);
  stranger = await signUp(s.app);
  fleet = await createFleet(s.app, s.db, owner, `Registry${hex(3)}`);
  strangerFleet = await createFleet(s.app, s.db, stranger, `Other${hex(3)}`);
  await giveFleetRole(s.db, owner.orgId, fleet, developer, 'developer');
  await giveFleetRole(s.db, owner.orgId, fleet, observer, 'observer');
  image = await createReleaseImage(s.app, owner.token, fleet);
  strangerImage = await createReleaseImage(s.app, stranger.token, strangerFleet);
  ({ uuid: deviceUuid, key: deviceKey } = await newDevice(owner.token, fleet));
  ({ uuid: strangerDeviceUuid, key: strangerDeviceKey } = await newDevice(stranger.token, strangerFleet));
});

afterAll(async () => {
  await removeLabelled(engine, testId);
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('image locations', () => {
  it('name this server as the registry host', () => {
    expect(image.location).toMatch(new RegExp(`^${s.host.replaceAll('.', '\\.')}/v2/[0-9a-f]{32}$`));
  });
});

describe('registry tokens (/auth/v1/token)', () => {
  it('answer a signed token with the Docker claims and the grants the model allows', async () => {
    const res = await registryToken(s.url, basic(owner), [`repository:${image.repository}:pull,push`]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: res.token, access_token: res.token, expires_in: 600, issued_at: expect.any(String) });
    const [header, payload] = res.token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.stringMatching(/^([A-Z2-7]{4}:){11}[A-Z2-7]{4}$/) });
    expect(payload).toMatchObject({ iss: 'flotilla', sub: owner.username, aud: s.host, jti: expect.any(String) });
    expect(payload.exp - payload.iat).toBe(600);
    expect(payload.access).toEqual([{ type: 'repository', name: image.repository, actions: ['pull', 'push'] }]);
  });

  it('grant push to developers, pull only to observers and nothing to another organization', async () => {
    const scope = [`repository:${image.repository}:pull,push`];
    expect(tokenAccess((await registryToken(s.url, basic(developer), scope)).token)).toEqual([{ type: 'repository', name: image.repository, actions: ['pull', 'push'] }]);
    expect(tokenAccess((await registryToken(s.url, basic(observer), scope)).token)).toEqual([{ type: 'repository', name: image.repository, actions: ['pull'] }]);
    expect(tokenAccess((await registryToken(s.url, basic(stranger), scope)).token)).toEqual([]);
  });

  it('grant a device of the fleet pull but not push, and a device of another fleet nothing', async () => {
    const scope = [`repository:${image.repository}:pull,push`];
    const own = await registryToken(s.url, { username: `d_${deviceUuid}`, password: deviceKey }, scope);
    expect(own.status).toBe(200);
    expect(tokenAccess(own.token)).toEqual([{ type: 'repository', name: image.repository, actions: ['pull'] }]);
    const other = await registryToken(s.url, { username: `d_${strangerDeviceUuid}`, password: strangerDeviceKey }, scope);
    expect(tokenAccess(other.token)).toEqual([]);
    // A device key presented under another device's name is refused.
    expect((await registryToken(s.url, { username: `d_${strangerDeviceUuid}`, password: deviceKey }, scope)).status).toBe(401);
  });

  it('accept an API key as password, answer anonymous callers a token without grants, and refuse bad credentials', async () => {
    const key = await s.app.inject({ method: 'POST', url: '/api-key/user/full', headers: { authorization: `Bearer ${owner.token}` }, payload: { name: 'registry' } });
    expect(key.statusCode, key.body).toBe(200);
    const withKey = await registryToken(s.url, { username: 'anything', password: key.json<string>() }, [`repository:${image.repository}:pull`]);
    expect(tokenAccess(withKey.token)).toEqual([{ type: 'repository', name: image.repository, actions: ['pull'] }]);
    const anonymous = await registryToken(s.url, null, [`repository:${image.repository}:pull`]);
    expect(anonymous.status).toBe(200);
    expect(tokenAccess(anonymous.token)).toEqual([]);
    const bad = await registryToken(s.url, { username: owner.username, password: 'not-a-key' }, [`repository:${image.repository}:pull`]);
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ errors: [{ code: 'UNAUTHORIZED' }] });
  });
});

describe('the registry API (/v2/)', () => {
  it('challenges requests without a token with the exact WWW-Authenticate header', async () => {
    const base = await reg('GET', '/v2/', null);
    expect(base.status).toBe(401);
    expect(base.headers.get('www-authenticate')).toBe(`Bearer realm="${s.url}/auth/v1/token",service="${s.host}"`);
    expect(base.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
    const res = await reg('GET', `/v2/${image.repository}/manifests/latest`, null);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="${s.url}/auth/v1/token",service="${s.host}",scope="repository:${image.repository}:pull"`);
    expect(await res.json()).toMatchObject({ errors: [{ code: 'UNAUTHORIZED', message: expect.any(String) }] });
    const upload = await reg('POST', `/v2/${image.repository}/blobs/uploads/`, 'not.a.token');
    expect(upload.status).toBe(401);
    expect(upload.headers.get('www-authenticate')).toBe(`Bearer realm="${s.url}/auth/v1/token",service="${s.host}",scope="repository:${image.repository}:pull,push"`);
  });

  it('pushes with podman and pulls back; tags list names the tag', async () => {
    const local = await buildTestImage(engine, testId, `hello ${testId}`);
    const target = `${image.location}:latest`;
    await podman(engine, ['tag', local, target]);
    await podman(engine, ['push', '--creds', `${owner.username}:${owner.token}`, target]);
    await podman(engine, ['rmi', '-f', target, local]);
    await podman(engine, ['pull', '--creds', `d_${deviceUuid}:${deviceKey}`, target]);
    const { stdout } = await podman(engine, ['image', 'inspect', '--format', '{{index .Labels "io.flotilla.test"}}', target]);
    expect(stdout.trim()).toBe(testId);
    const tags = await reg('GET', `/v2/${image.repository}/tags/list`, await pushToken());
    expect(await tags.json()).toEqual({ name: image.repository, tags: ['latest'] });
    const head = await reg('HEAD', `/v2/${image.repository}/manifests/latest`, await pushToken());
    expect(head.status).toBe(200);
    expect(head.headers.get('docker-content-digest')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('pushes and pulls through the engine’s Docker-compatible API with X-Registry-Auth (what deploy and the agent do)', async () => {
    const docker = new Docker({ socketPath: engine.socketPath });
    const follow = (stream: NodeJS.ReadableStream) =>
      new Promise<{ error?: string }[]>((resolve, reject) => docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => (err ? reject(err) : resolve(out))));
    const second = await createReleaseImage(s.app, owner.token, fleet, 'engine');
    const local = await buildTestImage(engine, testId, `engine ${testId}`);
    await docker.getImage(local).tag({ repo: second.location, tag: 'latest' });
    const pushed = await follow(await docker.getImage(`${second.location}:latest`).push({ authconfig: { username: owner.username, password: owner.token, serveraddress: s.host } }));
    expect(pushed.filter((e) => e.error)).toEqual([]);
    await docker.getImage(`${second.location}:latest`).remove({ force: true });
    const pulled = await follow(await docker.pull(`${second.location}:latest`, { authconfig: { username: `d_${deviceUuid}`, password: deviceKey, serveraddress: s.host } }));
    expect(pulled.filter((e) => e.error)).toEqual([]);
    expect((await docker.getImage(`${second.location}:latest`).inspect()).Config.Labels?.['io.flotilla.test']).toBe(testId);
    // Another fleet's device is refused.
    await docker.getImage(`${second.location}:latest`).remove({ force: true });
    const refused = await docker
      .pull(`${second.location}:latest`, { authconfig: { username: `d_${strangerDeviceUuid}`, password: strangerDeviceKey, serveraddress: s.host } })
      .then(follow)
      .then((events) => events.some((e) => e.error), () => true);
    expect(refused).toBe(true);
  });

  it('refuses a push with another fleet’s token and with a device key of the fleet', async () => {
    const local = await buildTestImage(engine, testId, `refused ${testId}`);
    const target = `${image.location}:refused`;
    await podman(engine, ['tag', local, target]);
    await expect(podman(engine, ['push', '--creds', `${stranger.username}:${stranger.token}`, target])).rejects.toThrow();
    await expect(podman(engine, ['push', '--creds', `d_${deviceUuid}:${deviceKey}`, target])).rejects.toThrow();
    // Over HTTP: a token without the grant gets the insufficient_scope challenge and DENIED.
    const strangerToken = (await registryToken(s.url, basic(stranger), [`repository:${image.repository}:pull,push`])).token;
    const res = await reg('POST', `/v2/${image.repository}/blobs/uploads/`, strangerToken);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await res.json()).toMatchObject({ errors: [{ code: 'DENIED' }] });
    const strangerDevice = (await registryToken(s.url, { username: `d_${strangerDeviceUuid}`, password: strangerDeviceKey }, [`repository:${image.repository}:pull`])).token;
    expect((await reg('GET', `/v2/${image.repository}/manifests/latest`, strangerDevice)).status).toBe(401);
    const tags = await reg('GET', `/v2/${image.repository}/tags/list`, await pushToken());
    expect(((await tags.json()) as { tags: string[] }).tags).toEqual(['latest']);
  });

  it('resumes a chunked upload: POST, PATCH part 1, GET status, PATCH part 2, PUT digest; then GET with a range', async () => {
    const token = await pushToken();
    const data = randomBytes(300_000);
    const start = await reg('POST', `/v2/${image.repository}/blobs/uploads/`, token);
    expect(start.status).toBe(202);
    const uuid = start.headers.get('docker-upload-uuid')!;
    const location = start.headers.get('location')!;
    expect(location).toBe(`/v2/${image.repository}/blobs/uploads/${uuid}`);
    expect(start.headers.get('range')).toBe('0-0');
    const part1 = await reg('PATCH', location, token, { body: data.subarray(0, 100_000), headers: { 'content-type': 'application/octet-stream', 'content-range': '0-99999' } });
    expect(part1.status).toBe(202);
    expect(part1.headers.get('range')).toBe('0-99999');
    // The client lost track: where to resume?
    const status = await reg('GET', location, token);
    expect(status.status).toBe(204);
    expect(status.headers.get('range')).toBe('0-99999');
    const wrong = await reg('PATCH', location, token, { body: data.subarray(50_000), headers: { 'content-range': `50000-${data.length - 1}` } });
    expect(wrong.status).toBe(416);
    const part2 = await reg('PATCH', location, token, { body: data.subarray(100_000), headers: { 'content-range': `100000-${data.length - 1}` } });
    expect(part2.status).toBe(202);
    const digest = sha(data);
    const done = await reg('PUT', `${location}?digest=${digest}`, token);
    expect(done.status).toBe(201);
    expect(done.headers.get('docker-content-digest')).toBe(digest);
    const blob = await reg('GET', `/v2/${image.repository}/blobs/${digest}`, token);
    expect(Buffer.from(await blob.arrayBuffer()).equals(data)).toBe(true);
    const part = await reg('GET', `/v2/${image.repository}/blobs/${digest}`, token, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(10, 20))).toBe(true);
    expect((await reg('GET', location, token)).status).toBe(404);
  });

  it('rejects a digest mismatch and keeps nothing', async () => {
    const token = await pushToken();
    const data = Buffer.from(`mismatch ${testId}`);
    const wrongDigest = sha('something else');
    const res = await reg('POST', `/v2/${image.repository}/blobs/uploads/?digest=${wrongDigest}`, token, { body: data, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ code: 'DIGEST_INVALID' }] });
    expect((await reg('HEAD', `/v2/${image.repository}/blobs/${wrongDigest}`, token)).status).toBe(404);
    expect((await reg('HEAD', `/v2/${image.repository}/blobs/${sha(data)}`, token)).status).toBe(404);
    expect(await readdir(join(dir, 'uploads'))).toEqual([]);
    expect((await s.db.query('SELECT 1 FROM registry_upload')).rows).toEqual([]);
    expect((await s.db.query('SELECT 1 FROM registry_blob WHERE digest = ANY($1)', [[wrongDigest, sha(data)]])).rows).toEqual([]);
  });

  it('refuses invalid digests, a manifest naming a missing blob, and an oversized manifest', async () => {
    const token = await pushToken();
    const invalid = await reg('HEAD', `/v2/${image.repository}/blobs/sha256:xyz`, token);
    expect(invalid.status).toBe(400);
    const put = await reg('PUT', `/v2/${image.repository}/blobs/uploads/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}?digest=md5:abc`, token);
    expect(put.status).toBe(404);
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha('no config'), size: 9 },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha('no layer'), size: 8 }],
    });
    const missing = await reg('PUT', `/v2/${image.repository}/manifests/missing`, token, { body: manifest, headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ errors: [{ code: 'MANIFEST_BLOB_UNKNOWN', detail: { digests: [sha('no config'), sha('no layer')] } }] });
    const big = await reg('PUT', `/v2/${image.repository}/manifests/big`, token, { body: Buffer.alloc(4 * 1024 * 1024 + 1, 32), headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ errors: [{ code: 'SIZE_INVALID' }] });
    const notJson = await reg('PUT', `/v2/${image.repository}/manifests/bad`, token, { body: '{', headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(await notJson.json()).toMatchObject({ errors: [{ code: 'MANIFEST_INVALID' }] });
    const badDigestRef = await reg('PUT', `/v2/${image.repository}/manifests/${sha('other')}`, token, { body: manifest, headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' } });
    expect(await badDigestRef.json()).toMatchObject({ errors: [{ code: 'DIGEST_INVALID' }] });
    const tags = await reg('GET', `/v2/${image.repository}/tags/list`, token);
    expect(((await tags.json()) as { tags: string[] }).tags).toEqual(['latest']);
  });

  it('stores an OCI index over a stored manifest, pages tags, mounts across repositories and lists only pullable repositories in the catalog', async () => {
    const token = await pushToken();
    const latest = await reg('GET', `/v2/${image.repository}/manifests/latest`, token);
    const manifestDigest = latest.headers.get('docker-content-digest')!;
    const index = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: [{ mediaType: latest.headers.get('content-type'), digest: manifestDigest, size: Number(latest.headers.get('content-length')), platform: { architecture: 'amd64', os: 'linux' } }],
    });
    const put = await reg('PUT', `/v2/${image.repository}/manifests/multi`, token, { body: index, headers: { 'content-type': 'application/vnd.oci.image.index.v1+json' } });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(sha(index));
    const page1 = await reg('GET', `/v2/${image.repository}/tags/list?n=1`, token);
    expect(await page1.json()).toEqual({ name: image.repository, tags: ['latest'] });
    expect(page1.headers.get('link')).toBe(`</v2/${image.repository}/tags/list?n=1&last=latest>; rel="next"`);
    const page2 = await reg('GET', `/v2/${image.repository}/tags/list?n=1&last=latest`, token);
    expect(await page2.json()).toEqual({ name: image.repository, tags: ['multi'] });

    // Mount the config blob into a second image of the same fleet.
    const second = await createReleaseImage(s.app, owner.token, fleet, 'second');
    const config = (JSON.parse(await (await reg('GET', `/v2/${image.repository}/manifests/latest`, token)).text()) as { config: { digest: string } }).config.digest;
    const both = (await registryToken(s.url, basic(owner), [`repository:${second.repository}:pull,push`, `repository:${image.repository}:pull`])).token;
    const mount = await reg('POST', `/v2/${second.repository}/blobs/uploads/?mount=${config}&from=${image.repository}`, both);
    expect(mount.status).toBe(201);
    expect((await reg('HEAD', `/v2/${second.repository}/blobs/${config}`, both)).status).toBe(200);

    // The stranger's repository exists too, but only the owner's are listed for the owner.
    const strangerPush = (await registryToken(s.url, basic(stranger), [`repository:${strangerImage.repository}:pull,push`])).token;
    expect((await reg('POST', `/v2/${strangerImage.repository}/blobs/uploads/`, strangerPush)).status).toBe(202);
    const catalogToken = (await registryToken(s.url, basic(owner), ['registry:catalog:*'])).token;
    const catalog = await reg('GET', '/v2/_catalog', catalogToken);
    const listed = ((await catalog.json()) as { repositories: string[] }).repositories;
    expect(listed).toEqual(expect.arrayContaining([image.repository, second.repository]));
    expect(listed).not.toContain(strangerImage.repository);
    expect((await s.db.query('SELECT 1 FROM registry_repository WHERE name = $1', [strangerImage.repository])).rows).toHaveLength(1);
    expect((await reg('GET', '/v2/_catalog', token)).status).toBe(401);
  });

  it('refuses a blob past the size limit and keeps the upload resumable where it was', async () => {
    const token = await pushToken();
    const start = await reg('POST', `/v2/${image.repository}/blobs/uploads/`, token);
    const location = start.headers.get('location')!;
    expect((await reg('PATCH', location, token, { body: randomBytes(1000) })).status).toBe(202);
    const big = await reg('PATCH', location, token, { body: Buffer.alloc(8 * 1024 * 1024, 1), headers: { 'content-range': `1000-${1000 + 8 * 1024 * 1024 - 1}` } });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ errors: [{ code: 'SIZE_INVALID', detail: { limit: 8 * 1024 * 1024 } }] });
    expect((await reg('GET', location, token)).headers.get('range')).toBe('0-999');
    expect((await reg('DELETE', location, token)).status).toBe(204);
  });

  it('refuses invalid repository names and tags', async () => {
    const token = await pushToken();
    expect(await (await reg('GET', '/v2/UPPER/case/tags/list', token)).json()).toMatchObject({ errors: [{ code: 'NAME_INVALID' }] });
    const badTag = await reg('GET', `/v2/${image.repository}/manifests/-bad`, token);
    expect(badTag.status).toBe(400);
    expect(await badTag.json()).toMatchObject({ errors: [{ code: 'TAG_INVALID' }] });
    expect((await reg('GET', `/v2/${image.repository}/manifests/nosuchtag`, token)).status).toBe(404);
    const badEncoding = await reg('GET', `/v2/${image.repository}/manifests/%E0%A4%A`, token);
    expect(badEncoding.status).toBe(400);
    // In the registry's error format, like every /v2 answer (not the data API's bare string).
    expect(await badEncoding.json()).toMatchObject({ errors: [{ code: expect.any(String), message: expect.any(String) }] });
  });

  it('cancels an upload with DELETE', async () => {
    const token = await pushToken();
    const start = await reg('POST', `/v2/${image.repository}/blobs/uploads/`, token);
    const location = start.headers.get('location')!;
    expect((await reg('DELETE', location, token)).status).toBe(204);
    expect((await reg('GET', location, token)).status).toBe(404);
  });
});
