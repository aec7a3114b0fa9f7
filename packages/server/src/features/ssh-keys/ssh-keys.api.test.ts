import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SSH_KEY_INVALID, sshKeyFingerprint } from '@flotilla/model';
import { buildApp } from '../../app.js';
import { bearer, createTestDb, sdkClient, signUp, TEST_JWT_SECRET } from '../../../test/harness.js';

/** A fresh OpenSSH `ssh-ed25519 AAAA… comment` line. */
function ed25519Line(comment = 'someone@host'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]).toString('base64')} ${comment}`;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer();
  const port = await listen(s);
  await new Promise((r) => s.close(r));
  return port;
}

// A tiny code host: GET /<username>.keys answers that user's keys, one a line (GitHub style).
const hostKeys = new Map<string, string>();
const codeHost = createServer((req, res) => {
  const m = /^\/([^/]+)\.keys$/.exec(req.url ?? '');
  if (m?.[1] === 'broken') {
    res.writeHead(500).end('boom');
    return;
  }
  const body = m ? hostKeys.get(decodeURIComponent(m[1]!)) : undefined;
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
});

let app: FastifyInstance;
let unreachableApp: FastifyInstance;
let apiUrl: string;
let db: Awaited<ReturnType<typeof createTestDb>>;

beforeAll(async () => {
  db = await createTestDb();
  const hostPort = await listen(codeHost);
  app = await buildApp({ db: db.db, jwtSecret: TEST_JWT_SECRET, sshKeys: { keysUrl: `http://127.0.0.1:${hostPort}`, timeoutMs: 5000 } });
  unreachableApp = await buildApp({ db: db.db, jwtSecret: TEST_JWT_SECRET, sshKeys: { keysUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 5000 } });
  apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  await unreachableApp.close();
  await new Promise((r) => codeHost.close(r));
  await db.drop();
});

const keyRows = async (userId: number) =>
  (await db.db.query<{ title: string; public_key: string }>('SELECT title, public_key FROM user__has__public_key WHERE "user" = $1 ORDER BY id', [userId])).rows;

describe('SSH keys through balena-sdk (sdk.models.key)', () => {
  it('adds a trimmed key, lists only the caller’s keys, and deletes it', async () => {
    const owner = await signUp(app);
    const other = await signUp(app);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const line = ed25519Line();
    const created = await sdk.models.key.create('  Laptop  ', `\n  ${line}  \n`);
    expect(created).toMatchObject({ title: 'Laptop', public_key: line, user: { __id: owner.userId } });
    expect(await keyRows(owner.userId)).toEqual([{ title: 'Laptop', public_key: line }]);

    const mine = await sdk.models.key.getAll({ $select: ['id', 'title', 'public_key', 'created_at'] });
    expect(mine).toHaveLength(1);
    expect(sshKeyFingerprint(mine[0]!.public_key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);

    // Another user neither sees nor deletes it.
    const otherSdk = sdkClient(apiUrl);
    await otherSdk.auth.loginWithToken(other.token);
    expect(await otherSdk.models.key.getAll()).toEqual([]);
    await otherSdk.models.key.remove(created.id);
    expect(await keyRows(owner.userId)).toHaveLength(1);

    await sdk.models.key.remove(created.id);
    expect(await keyRows(owner.userId)).toEqual([]);
  });

  it('refuses a bad key with the pattern message and stores nothing', async () => {
    const u = await signUp(app);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(u.token);
    await expect(sdk.models.key.create('bad', 'ssh-foo AAAA')).rejects.toThrow(SSH_KEY_INVALID);
    expect(await keyRows(u.userId)).toEqual([]);
  });
});

describe('SSH key rules on the data API', () => {
  it('answers 400 with the spec messages for a missing title or key, storing nothing', async () => {
    const u = await signUp(app);
    const post = (payload: object) => app.inject({ method: 'POST', url: '/v7/user__has__public_key', headers: bearer(u.token), payload });
    const noTitle = await post({ title: '   ', public_key: ed25519Line(), user: u.userId });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json()).toBe('The key title is mandatory!');
    const noKey = await post({ title: 'x', public_key: '  ', user: u.userId });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()).toBe('The key is mandatory!');
    const missingKey = await post({ title: 'x', user: u.userId });
    expect(missingKey.json()).toBe('The key is mandatory!');
    const bad = await post({ title: 'x', public_key: 'ssh-rsa not*base64' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toBe(SSH_KEY_INVALID);
    expect(await keyRows(u.userId)).toEqual([]);
  });

  it('saves the caller’s key when `user` is omitted, answers the `key` synonym, and refuses a key for someone else', async () => {
    const u = await signUp(app);
    const victim = await signUp(app);
    const line = ed25519Line();
    const res = await app.inject({ method: 'POST', url: '/v7/key', headers: bearer(u.token), payload: { title: 'desk', public_key: line } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ title: 'desk', user: { __id: u.userId } });
    const listed = await app.inject({ method: 'GET', url: '/v7/key?$select=title', headers: bearer(u.token) });
    expect(listed.json()).toEqual({ d: [{ title: 'desk' }] });

    const forOther = await app.inject({
      method: 'POST',
      url: '/v7/user__has__public_key',
      headers: bearer(u.token),
      payload: { title: 'sneaky', public_key: ed25519Line(), user: victim.userId },
    });
    expect(forOther.statusCode).toBe(401);
    expect(await keyRows(victim.userId)).toEqual([]);
  });

  it('does not let anybody change a saved key', async () => {
    const u = await signUp(app);
    const res = await app.inject({ method: 'POST', url: '/v7/key', headers: bearer(u.token), payload: { title: 'desk', public_key: ed25519Line() } });
    const id = res.json<{ id: number }>().id;
    const patch = await app.inject({ method: 'PATCH', url: `/v7/key(${id})`, headers: bearer(u.token), payload: { title: 'renamed' } });
    expect(patch.statusCode).toBeGreaterThanOrEqual(400);
    expect((await keyRows(u.userId))[0]!.title).toBe('desk');
  });
});

describe('POST /user/v1/ssh-keys/import', () => {
  const importKeys = (server: FastifyInstance, token: string, username: unknown) =>
    server.inject({ method: 'POST', url: '/user/v1/ssh-keys/import', headers: bearer(token), payload: { username } });

  it("saves the code host's new keys as 'GitHub Key N' (first unused N), skipping saved keys and junk lines", async () => {
    const u = await signUp(app);
    const [a, b, c] = [ed25519Line('a'), ed25519Line('b'), ed25519Line('c')];
    hostKeys.set('octo-cat', `${a}\nnot a key\n${b}\r\n${c}\n`);
    // Already saved: one of the served keys (under another comment) and a 'GitHub Key 1'.
    const [type, body] = b.split(' ');
    await app.inject({ method: 'POST', url: '/v7/key', headers: bearer(u.token), payload: { title: 'GitHub Key 1', public_key: ed25519Line() } });
    await app.inject({ method: 'POST', url: '/v7/key', headers: bearer(u.token), payload: { title: 'work', public_key: `${type} ${body} other-comment` } });

    const res = await importKeys(app, u.token, ' octo-cat ');
    expect(res.statusCode).toBe(201);
    expect(res.json<{ d: { title: string; public_key: string }[] }>().d.map((k) => [k.title, k.public_key])).toEqual([
      ['GitHub Key 2', a],
      ['GitHub Key 3', c],
    ]);
    expect((await keyRows(u.userId)).map((k) => k.title)).toEqual(['GitHub Key 1', 'work', 'GitHub Key 2', 'GitHub Key 3']);

    const again = await importKeys(app, u.token, 'octo-cat');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toBe('All of the SSH keys of octo-cat are already saved');
    expect(await keyRows(u.userId)).toHaveLength(4);
  });

  it('answers the no-keys error for a user without keys or unknown to the host', async () => {
    const u = await signUp(app);
    hostKeys.set('keyless', '\n');
    for (const name of ['keyless', 'nobody-here']) {
      const res = await importKeys(app, u.token, name);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatch(new RegExp(`^No SSH keys were found for ${name} on 127\\.0\\.0\\.1:\\d+$`));
    }
    expect(await keyRows(u.userId)).toEqual([]);
  });

  it('answers 502 with a clear message when the code host is unreachable or fails', async () => {
    const u = await signUp(app);
    const down = await importKeys(unreachableApp, u.token, 'octo-cat');
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatch(/^Failed retrieving the SSH keys of octo-cat from 127\.0\.0\.1:\d+: the code host is unreachable$/);
    const failing = await importKeys(app, u.token, 'broken');
    expect(failing.statusCode).toBe(502);
    expect(failing.json()).toMatch(/\(HTTP 500\)$/);
    expect(await keyRows(u.userId)).toEqual([]);
  });

  it('requires a username of code-host characters and a signed-in user', async () => {
    const u = await signUp(app);
    expect((await importKeys(app, u.token, '  ')).json()).toBe('The username is mandatory!');
    expect((await importKeys(app, u.token, '../etc/passwd')).statusCode).toBe(400);
    const anonymous = await app.inject({ method: 'POST', url: '/user/v1/ssh-keys/import', payload: { username: 'octo-cat' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
