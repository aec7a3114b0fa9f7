import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import type { PoolDb } from '../../infra/db/db.js';
import { Mailer } from '../../infra/mail/mailer.js';
import { createTestDb, sdkClient, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { createFleet, row } from '../../../test/support/fleet-helpers.js';
import { freePort } from '../../../test/support/net.js';
import { eventually } from '../../../test/support/cloud-link.js';
import { testEngine } from '../../../test/support/test-engine.js';

// Issue 14 item 4 (Linux way in): the server hands out the agent as one file and the
// installer the Add device dialog's command runs; balena's /config in the SDK's shape.

let app: FastifyInstance;
let db: PoolDb;
let drop: () => Promise<void>;
let mailer: Mailer;
let apiUrl: string;
let owner: SignedUpUser;
let fleetId: number;
let dir: string;
const children: ChildProcess[] = [];


/** Runs `sh -c command` in its own process group; resolves with the exit code and output. */
function sh(command: string, env: Record<string, string>, opts: { keep?: boolean } = {}) {
  const child = spawn('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (opts.keep) children.push(child);
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  return { child, done, output: () => output };
}

const installCommand = (key: string, deviceType = 'raspberrypi3') =>
  `curl -fsSL '${apiUrl}/download/agent/install.sh' | sh -s -- --api '${apiUrl}' --fleet '${fleetId}' --device-type '${deviceType}' --provisioning-key '${key}'`;

beforeAll(async () => {
  const t = await createTestDb();
  db = t.db;
  drop = t.drop;
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  mailer = new Mailer({ db, publicUrl: apiUrl });
  app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, mailer });
  await app.listen({ port, host: '127.0.0.1' });
  owner = await signUp(app);
  fleetId = await createFleet(app, db, owner, 'AddDeviceFleet', 'raspberrypi3');
  dir = await mkdtemp(join(tmpdir(), 'flotilla-provisioning-'));
});

afterAll(async () => {
  for (const c of children) {
    if (c.exitCode === null && c.pid !== undefined) process.kill(-c.pid, 'SIGTERM');
  }
  await app.close();
  await mailer.close();
  await drop();
  await rm(dir, { recursive: true, force: true });
});

describe('GET /config and the device-type endpoints through balena-sdk', () => {
  it('answers config.getAll with the public configuration, signed in or not', async () => {
    const sdk = sdkClient(apiUrl);
    expect(await sdk.models.config.getAll()).toEqual({
      deployment: null,
      deviceUrlsBase: '127.0.0.1',
      adminUrl: apiUrl,
      gitServerUrl: '',
      signupCodeRequired: false,
      supportedSocialProviders: [],
    });
    const res = await app.inject({ method: 'GET', url: '/config' });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('answers getDeviceTypes, deviceType.get and getConfigVarSchema for the dialog’s device types', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const types = (await sdk.models.config.getDeviceTypes()) as unknown as Array<{ slug: string }>;
    expect(types.map((d) => d.slug)).toContain('raspberrypi3');
    expect(await sdk.models.deviceType.get('raspberrypi3', { $select: ['slug', 'name'] })).toMatchObject({ slug: 'raspberrypi3' });
    const schema = await sdk.models.config.getConfigVarSchema('raspberrypi3');
    expect(schema.reservedNamespaces.length).toBeGreaterThan(0);
    expect(Object.keys(schema.configVarSchema.properties ?? {}).length).toBeGreaterThan(0);
  });
});

describe('GET /download/agent', () => {
  it('answers one self-contained ES module that starts with Node alone, with a content-hash ETag', async () => {
    const res = await app.inject({ method: 'GET', url: '/download/agent' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const body = res.rawPayload;
    const file = join(dir, 'bundle', 'flotilla-agent.mjs');
    await mkdir(join(dir, 'bundle'));
    await writeFile(file, body);
    // Outside the repository: no node_modules to fall back on.
    const help = sh(`cd '${dir}' && node '${file}' --help`, {});
    const { code, output } = await help.done;
    expect(code).toBe(0);
    expect(output).toContain('Usage: flotilla-agent <command>');

    const again = await app.inject({ method: 'GET', url: '/download/agent', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    const zipped = await app.inject({ method: 'GET', url: '/download/agent', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.etag).toBe(`W/${etag}`);
    expect(gunzipSync(zipped.rawPayload).equals(body)).toBe(true);
  });
});

describe('GET /download/agent/install.sh', () => {
  it('installs the agent under FLOTILLA_PREFIX, writes config.json and starts it: the device registers in the fleet', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleetId, keyName: 'install test', keyExpiryDate: null });
    const prefix = join(dir, 'root');
    const engine = testEngine();
    const run = sh(installCommand(key), { FLOTILLA_PREFIX: prefix, FLOTILLA_FOREGROUND: '1', DOCKER_HOST: engine.dockerHost }, { keep: true });
    const device = await eventually(
      () => row<{ uuid: string; is_online: boolean }>(db, 'SELECT uuid, is_online FROM device WHERE belongs_to__application = $1', [fleetId]),
      (d) => d?.is_online === true,
      30_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\ninstaller output:\n${run.output()}`);
    });
    expect(run.output()).toContain(`container engine: ${engine.dockerHost}`);
    const agent = await stat(join(prefix, 'usr/local/lib/flotilla/flotilla-agent.mjs'));
    expect(agent.isFile()).toBe(true);
    const config = JSON.parse(await readFile(join(prefix, 'etc/flotilla/config.json'), 'utf8')) as Record<string, unknown>;
    // Registered: the agent wrote its identity back and dropped the provisioning key.
    expect(config).toMatchObject({ apiEndpoint: apiUrl, applicationId: fleetId, deviceType: 'raspberrypi3', uuid: device!.uuid });
    // The registry its releases' images are in, so the agent pulls them with its device key.
    expect(config.registryEndpoint).toBe(new URL(apiUrl).host);
    expect(config).not.toHaveProperty('apiKey');
    expect((await stat(join(prefix, 'etc/flotilla/config.json'))).mode & 0o777).toBe(0o600);
  });

  it('without systemd starts the agent in the background, writes its pid and log, and a re-run keeps the device', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const key = await sdk.models.application.generateProvisioningKey({ slugOrUuidOrId: fleetId, keyName: 'background test', keyExpiryDate: null });
    const prefix = join(dir, 'background');
    const env = { FLOTILLA_PREFIX: prefix, FLOTILLA_SYSTEMD: '0', FLOTILLA_AGENT_ENGINE: 'none' };
    const first = await sh(installCommand(key, 'raspberrypi4-64'), env).done;
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('FLOTILLA_AGENT_ENGINE=none');
    expect(first.output).toContain('started the agent in the background');
    const pid = Number(await readFile(join(prefix, 'usr/local/lib/flotilla/flotilla-agent.pid'), 'utf8'));
    try {
      const device = await eventually(
        () => row<{ uuid: string }>(db, "SELECT d.uuid FROM device d JOIN device_type t ON t.id = d.is_of__device_type WHERE d.belongs_to__application = $1 AND t.slug = 'raspberrypi4-64'", [fleetId]),
        (d) => d !== undefined,
        30_000,
      );
      const config = JSON.parse(await readFile(join(prefix, 'etc/flotilla/config.json'), 'utf8')) as { uuid: string };
      expect(config.uuid).toBe(device!.uuid);
      // Again (an agent update): the config and so the device stay.
      process.kill(pid, 'SIGTERM');
      const again = await sh(installCommand('0000000000unusedkey', 'raspberrypi4-64'), env).done;
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain('keeping the existing');
      expect((JSON.parse(await readFile(join(prefix, 'etc/flotilla/config.json'), 'utf8')) as { uuid: string }).uuid).toBe(device!.uuid);
      expect(await readFile(join(prefix, 'var/log/flotilla-agent.log'), 'utf8')).not.toBe('');
    } finally {
      const current = Number(await readFile(join(prefix, 'usr/local/lib/flotilla/flotilla-agent.pid'), 'utf8'));
      for (const p of new Set([pid, current])) {
        try {
          process.kill(p, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
  });

  it('refuses bad arguments, an old Node.js and a missing engine socket before writing anything', async () => {
    const prefix = join(dir, 'refused');
    const script = `curl -fsSL '${apiUrl}/download/agent/install.sh' | sh -s --`;
    const cases: [string, Record<string, string>, string][] = [
      [`${script} --fleet 1 --device-type x --provisioning-key k`, {}, "--api must be the server's http(s) URL"],
      [`${script} --api '${apiUrl}' --fleet one --device-type x --provisioning-key k`, {}, "--fleet must be the fleet's numeric id"],
      [`${script} --api '${apiUrl}' --fleet 1 --device-type 'a;b' --provisioning-key k`, {}, '--device-type must be a device type slug'],
      [`${script} --api '${apiUrl}' --fleet 1 --device-type x --provisioning-key 'k"'`, {}, '--provisioning-key must be'],
      [`${script} --api '${apiUrl}' --bogus`, {}, 'unknown option: --bogus'],
      [`${script} --api '${apiUrl}' --fleet 1 --device-type x --provisioning-key k`, { DOCKER_HOST: `unix://${dir}/no.sock` }, `DOCKER_HOST=unix://${dir}/no.sock is not a socket`],
      [`${script} --api '${apiUrl}' --fleet 1 --device-type x --provisioning-key k`, { FLOTILLA_AGENT_ENGINE: 'lxc' }, 'FLOTILLA_AGENT_ENGINE must be docker, podman or none'],
    ];
    // A Node.js 18 on PATH.
    const oldNode = join(dir, 'old-node');
    await mkdir(oldNode);
    await writeFile(join(oldNode, 'node'), '#!/bin/sh\n[ "$1" = --version ] && echo v18.20.0\nexit 1\n', { mode: 0o755 });
    cases.push([`${script} --api '${apiUrl}' --fleet 1 --device-type x --provisioning-key k`, { PATH: `${oldNode}:/usr/bin:/bin` }, 'Node.js >= 20 is required; this host has v18.20.0']);
    for (const [command, env, message] of cases) {
      const { code, output } = await sh(command, { FLOTILLA_PREFIX: prefix, ...env }).done;
      expect(code, command).toBe(1);
      expect(output).toContain(`flotilla: error: ${message}`);
    }
    await expect(stat(prefix)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
