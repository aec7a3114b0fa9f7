import { randomBytes } from 'node:crypto';
import { access, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpUser } from '../../../test/harness.js';
import { podman, removeLabelled } from '../../../test/support/engine.js';
import { createFleet, hex } from '../../../test/support/fleet-helpers.js';
import { buildTestImage, createReleaseImage, registryToken, startRegistryServer, tokenAccess, type CreatedImage, type RegistryServer } from '../../../test/support/registry.js';
import { testEngine } from '../../../test/support/test-engine.js';
import { REGISTRY_GARBAGE_JOB } from './index.js';

/**
 * The registry's lifecycle around releases: a finished release's target state names its
 * images by digest and a device pulls them that way (what a balena supervisor does), and
 * deleting a release lets the durable garbage job remove the blobs only it used, while a
 * layer another release shares stays; abandoned uploads go too.
 */

const engine = testEngine();
const testId = `registry-gc-${randomBytes(4).toString('hex')}`;
const dir = `/tmp/flotilla-registry-test-${testId}`;
let s: RegistryServer;
let owner: SignedUpUser;
let fleet: number;
let a: CreatedImage;
let b: CreatedImage;
let device: { uuid: string; key: string };

const blobFile = (digest: string) => join(dir, 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7));
const exists = (file: string) => access(file).then(() => true, () => false);

async function push(img: CreatedImage, content: string): Promise<{ digest: string; layers: string[]; config: string }> {
  const local = await buildTestImage(engine, testId, content);
  const target = `${img.location}:latest`;
  await podman(engine, ['tag', local, target]);
  await podman(engine, ['push', '--creds', `${owner.username}:${owner.token}`, target]);
  const token = (await registryToken(s.url, { username: owner.username, password: owner.token }, [`repository:${img.repository}:pull`])).token;
  const res = await fetch(`${s.url}/v2/${img.repository}/manifests/latest`, { headers: { authorization: `Bearer ${token}` } });
  const manifest = (await res.json()) as { config: { digest: string }; layers: { digest: string }[] };
  return { digest: res.headers.get('docker-content-digest')!, layers: manifest.layers.map((l) => l.digest), config: manifest.config.digest };
}

async function runJob(): Promise<void> {
  const id = (await s.app.jobs!.send(REGISTRY_GARBAGE_JOB))!;
  for (let i = 0; i < 200; i++) {
    const state = await s.app.jobs!.stateOf(REGISTRY_GARBAGE_JOB, id);
    if (state === 'completed') return;
    if (state === 'failed') throw new Error('registry garbage job failed');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('registry garbage job did not run');
}

const api = (method: 'GET' | 'PATCH' | 'DELETE' | 'POST', url: string, token: string, payload?: object) =>
  s.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  s = await startRegistryServer({ dir, garbageGraceMs: 0, uploadMaxAgeMs: 60 * 60 * 1000 }, { jobs: { pollingIntervalSeconds: 0.5 } });
  owner = await signUp(s.app);
  fleet = await createFleet(s.app, s.db, owner, `Gc${hex(3)}`);
  a = await createReleaseImage(s.app, owner.token, fleet);
  b = await createReleaseImage(s.app, owner.token, fleet);
  const prov = (await api('POST', '/api-key/v2/', owner.token, { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json<string>();
  const uuid = hex();
  const reg = await api('POST', '/device/register', prov, { application: fleet, uuid, device_type: 'raspberrypi3' });
  device = { uuid, key: reg.json<{ api_key: string }>().api_key };
});

afterAll(async () => {
  await removeLabelled(engine, testId);
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('releases and the registry', () => {
  let pushedA: Awaited<ReturnType<typeof push>>;
  let pushedB: Awaited<ReturnType<typeof push>>;

  it('names a finished release’s images by digest in target state, and the fleet’s device pulls them so', async () => {
    pushedA = await push(a, `a ${testId}`);
    pushedB = await push(b, `b ${testId}`);
    expect((await api('PATCH', `/v7/image(${b.imageId})`, owner.token, { status: 'success', content_hash: pushedB.digest })).statusCode).toBe(200);
    expect((await api('PATCH', `/v7/release(${b.releaseId})`, owner.token, { status: 'success' })).statusCode).toBe(200);
    expect((await api('PATCH', `/v7/application(${fleet})`, owner.token, { should_be_running__release: b.releaseId, should_track_latest_release: false })).statusCode).toBe(200);
    const state = await api('GET', `/device/v3/${device.uuid}/state`, device.key);
    expect(state.statusCode, state.body).toBe(200);
    const services = Object.values(state.json()[device.uuid].apps).flatMap((app) => Object.values((app as { releases: Record<string, { services: Record<string, { image: string }> }> }).releases)).flatMap((r) => Object.values(r.services));
    expect(services.map((sv) => sv.image)).toEqual([`${b.location}@${pushedB.digest}`]);
    // A balena supervisor asks for pull on each image with d_<uuid> and its device key.
    const token = await registryToken(s.url, { username: `d_${device.uuid}`, password: device.key }, [`repository:${b.repository}:pull`]);
    expect(tokenAccess(token.token)).toEqual([{ type: 'repository', name: b.repository, actions: ['pull'] }]);
    await podman(engine, ['pull', '--creds', `d_${device.uuid}:${device.key}`, `${b.location}@${pushedB.digest}`]);
    // The finished release's images are fixed: no push grant any more.
    const after = await registryToken(s.url, { username: owner.username, password: owner.token }, [`repository:${b.repository}:pull,push`]);
    expect(tokenAccess(after.token)).toEqual([{ type: 'repository', name: b.repository, actions: ['pull'] }]);
  });

  it('removes the blobs only a deleted release used, keeps a layer another release shares, and drops abandoned uploads', async () => {
    const shared = pushedA.layers.filter((l) => pushedB.layers.includes(l));
    const onlyA = [...pushedA.layers.filter((l) => !shared.includes(l)), pushedA.config];
    expect(shared.length).toBeGreaterThan(0);
    expect(onlyA.length).toBeGreaterThan(1);
    for (const d of [...shared, ...onlyA]) expect(await exists(blobFile(d))).toBe(true);

    // An upload begun two days ago and never finished.
    const token = (await registryToken(s.url, { username: owner.username, password: owner.token }, [`repository:${a.repository}:pull,push`])).token;
    const start = await fetch(`${s.url}/v2/${a.repository}/blobs/uploads/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    const uuid = start.headers.get('docker-upload-uuid')!;
    await s.db.query(`UPDATE registry_upload SET started_at = now() - interval '2 days' WHERE uuid = $1`, [uuid]);

    expect((await api('DELETE', `/v7/release(${a.releaseId})`, owner.token)).statusCode).toBe(200);
    await runJob();

    for (const d of onlyA) expect(await exists(blobFile(d))).toBe(false);
    for (const d of [...shared, ...pushedB.layers, pushedB.config]) expect(await exists(blobFile(d))).toBe(true);
    expect(await readdir(join(dir, 'uploads'))).toEqual([]);
    expect((await s.db.query('SELECT name FROM registry_repository ORDER BY name')).rows).toEqual([{ name: b.repository }]);
    // The other release still pulls.
    await podman(engine, ['rmi', '-f', `${b.location}@${pushedB.digest}`]).catch(() => undefined);
    await podman(engine, ['pull', '--creds', `d_${device.uuid}:${device.key}`, `${b.location}@${pushedB.digest}`]);
  });
});
