import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpUser } from '../../../test/harness.js';
import { podman, removeLabelled } from '../../../test/support/engine.js';
import { createFleet, hex } from '../../../test/support/fleet-helpers.js';
import { freePort } from '../../../test/support/net.js';
import { buildTestImage, createReleaseImage, registryToken, startRegistryServer, type CreatedImage, type RegistryServer } from '../../../test/support/registry.js';
import { testEngine } from '../../../test/support/test-engine.js';

/**
 * External registry mode (FLOTILLA_REGISTRY_URL): Debian's docker-registry (CNCF
 * Distribution 2.8) configured with token auth trusting a certificate made here with
 * openssl, as docs/registry.md tells an operator to. Image locations name that registry,
 * Flotilla's /auth/v1/token signs for it, and its own /v2 is off.
 */

const run = promisify(execFile);
const engine = testEngine();
const testId = `registry-ext-${randomBytes(4).toString('hex')}`;
let work: string;
let registry: ChildProcess;
let registryUrl: string;
let s: RegistryServer;
let owner: SignedUpUser;
let stranger: SignedUpUser;
let image: CreatedImage;

async function waitForRegistry(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (registry.exitCode !== null) throw new Error(`docker-registry exited with ${registry.exitCode}`);
    const ok = await fetch(`${url}/v2/`).then((r) => r.status === 401, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('docker-registry did not start');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'flotilla-external-registry-'));
  await run('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', join(work, 'token.key')]);
  await run('openssl', ['req', '-new', '-x509', '-key', join(work, 'token.key'), '-out', join(work, 'token.crt'), '-days', '30', '-subj', '/CN=flotilla registry token']);
  const port = await freePort();
  registryUrl = `http://127.0.0.1:${port}`;
  const flotillaPort = await freePort();
  const config = [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${join(work, 'data')}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    `  secret: ${randomBytes(16).toString('hex')}`,
    'auth:',
    '  token:',
    `    realm: http://127.0.0.1:${flotillaPort}/auth/v1/token`,
    `    service: 127.0.0.1:${port}`,
    '    issuer: flotilla',
    `    rootcertbundle: ${join(work, 'token.crt')}`,
    '',
  ].join('\n');
  await writeFile(join(work, 'config.yml'), config);
  registry = spawn('/usr/bin/docker-registry', ['serve', join(work, 'config.yml')], { stdio: 'ignore' });
  await waitForRegistry(registryUrl);
  s = await startRegistryServer({ externalUrl: registryUrl, tokenKeyPem: await readFile(join(work, 'token.key'), 'utf8') }, { port: flotillaPort });
  owner = await signUp(s.app);
  stranger = await signUp(s.app);
  const fleet = await createFleet(s.app, s.db, owner, `Ext${hex(3)}`);
  image = await createReleaseImage(s.app, owner.token, fleet);
});

afterAll(async () => {
  await removeLabelled(engine, testId);
  registry?.kill('SIGTERM');
  await s?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('an external Distribution registry trusting Flotilla’s tokens', () => {
  it('gets image locations on its host, and Flotilla’s own /v2 is off', async () => {
    expect(image.location).toMatch(new RegExp(`^127\\.0\\.0\\.1:${new URL(registryUrl).port}/v2/[0-9a-f]{32}$`));
    const own = await fetch(`${s.url}/v2/`);
    expect(own.status).toBe(404);
    expect(await own.json()).toMatchObject({ errors: [{ code: 'UNSUPPORTED' }] });
  });

  it('accepts a push and a pull with podman through Flotilla-issued tokens', async () => {
    const local = await buildTestImage(engine, testId, `external ${testId}`);
    const target = `${image.location}:latest`;
    await podman(engine, ['tag', local, target]);
    await podman(engine, ['push', '--creds', `${owner.username}:${owner.token}`, target]);
    await podman(engine, ['rmi', '-f', target, local]);
    await podman(engine, ['pull', '--creds', `${owner.username}:${owner.token}`, target]);
    const token = (await registryToken(s.url, { username: owner.username, password: owner.token }, [`repository:${image.repository}:pull`], new URL(registryUrl).host)).token;
    const tags = await fetch(`${registryUrl}/v2/${image.repository}/tags/list`, { headers: { authorization: `Bearer ${token}` } });
    expect(tags.status).toBe(200);
    expect(await tags.json()).toEqual({ name: image.repository, tags: ['latest'] });
  });

  it('refuses requests without a token, with a forged one, and with a token that has no grant', async () => {
    const path = `${registryUrl}/v2/${image.repository}/tags/list`;
    const none = await fetch(path);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="${s.url}/auth/v1/token",service="${new URL(registryUrl).host}",scope="repository:${image.repository}:pull"`);
    const good = (await registryToken(s.url, { username: owner.username, password: owner.token }, [`repository:${image.repository}:pull`], new URL(registryUrl).host)).token;
    const [h, p] = good.split('.');
    const forged = `${h}.${p}.${Buffer.from(randomBytes(64)).toString('base64url')}`;
    expect((await fetch(path, { headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
    const noGrant = (await registryToken(s.url, { username: stranger.username, password: stranger.token }, [`repository:${image.repository}:pull`], new URL(registryUrl).host)).token;
    expect((await fetch(path, { headers: { authorization: `Bearer ${noGrant}` } })).status).toBe(401);
    await expect(podman(engine, ['pull', '--creds', `${stranger.username}:${stranger.token}`, `${image.location}:latest`])).rejects.toThrow();
  });
});
