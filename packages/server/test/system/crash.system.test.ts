import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../src/infra/db/embedded.js';
import { freePort } from '../support/net.js';
import { childrenOf } from '../support/processes.js';
import { SmtpInbox } from '../support/smtp-inbox.js';

// Issue 21, crash safety (docs/crash-safety.md). The BUILT server (`npm run build -w
// @flotilla/server`) with its embedded PostgreSQL in a temporary FLOTILLA_DATA_DIR, started
// with one command and one environment every time, as a user's terminal or unit file does.
// Concurrent writers (fleets, variables, tags, device registrations, invitations that queue
// mail, registry uploads left half-finished) run while the server is killed with SIGKILL at a
// random moment (FLOTILLA_CRASH_CYCLES times, default 50), and while its PostgreSQL postmaster
// is (FLOTILLA_PG_CRASH_CYCLES, default 10). After every restart each write that got a 2xx
// must be there, and nothing refused may be there half-done.
const root = new URL('../../../../', import.meta.url).pathname;
const MAIN = join(root, 'packages/server/dist/main.mjs');
const CYCLES = Number(process.env.FLOTILLA_CRASH_CYCLES ?? 50);
const PG_CYCLES = Number(process.env.FLOTILLA_PG_CRASH_CYCLES ?? 10);
const ADMIN_PASSWORD = 'crash-admin-password';

interface Journal {
  fleets: Map<string, number>;
  variables: Map<string, string>;
  tags: Map<string, string>;
  devices: Set<string>;
  invitations: Map<number, string>;
  /** Upload uuid → bytes acknowledged (202 with that range). */
  uploads: Map<string, number>;
  /** Uploads whose completing PUT was sent (uuid → digest): either still open or a blob. */
  completing: Map<string, string>;
  /** Completed blobs (201). */
  blobs: Set<string>;
  /** Digests of the data of uploads never completed: no blob may have them. */
  partialDigests: Set<string>;
}

const journal: Journal = {
  fleets: new Map(),
  variables: new Map(),
  tags: new Map(),
  devices: new Set(),
  invitations: new Map(),
  uploads: new Map(),
  completing: new Map(),
  blobs: new Set(),
  partialDigests: new Set(),
};
let refused = 0;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Invitations (each queues a mail) the writers make in all: every one is delivered in the end phase. */
const MAX_INVITATIONS = 400;
const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Alive and not a zombie (an orphan that exited stays one until its new parent reaps it). */
function running(pid: number): boolean {
  if (!alive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Removes a data directory after its processes were killed. PostgreSQL's backends outlive a
 * postmaster killed with SIGKILL until they notice, and may still write WAL meanwhile (a CI run's
 * clean-up failed with ENOTEMPTY on pg_wal): every process working in the directory (a
 * backend's working directory is the cluster's) is killed first, and the removal retries.
 */
async function removeDataDir(dir: string): Promise<void> {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
}

describe('crash safety: kill -9 of the server and of its PostgreSQL during concurrent writes', () => {
  const inbox = new SmtpInbox();
  let dataDir = '';
  let port = 0;
  let api = '';
  let env: NodeJS.ProcessEnv = {};
  let server: { child: ChildProcess; out: () => string; exited: Promise<number | null> } | undefined;
  /** Every pid we started or that our servers started (server, watchdog, postmaster): killed in afterAll. */
  const started = new Set<number>();
  const starts: number[] = [];

  const postmasterPid = (): number | null => {
    try {
      return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  };

  /** The same command and environment every time: `node packages/server/dist/main.mjs`. */
  async function startServer(): Promise<void> {
    const t0 = Date.now();
    const child = spawn(process.execPath, [MAIN], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    started.add(child.pid!);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    // 'close', not 'exit': its output has been read to the end.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    server = { child, out: () => out, exited };
    const end = Date.now() + 60_000;
    for (;;) {
      if (gone) throw new Error(`the server exited during start-up:\n${out}`);
      const ok = await fetch(`${api}/ping`, { signal: AbortSignal.timeout(2_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > end) throw new Error(`no /ping after 60 s:\n${out}`);
      await sleep(50);
    }
    for (const pid of childrenOf(child.pid!)) started.add(pid);
    starts.push(Date.now() - t0);
  }

  async function killServer(): Promise<void> {
    if (!server) return;
    const { child, exited } = server;
    try {
      process.kill(child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
    server = undefined;
  }

  let token = '';
  let orgId = 0;
  let baseFleet = 0;
  let deviceType = 0;
  let memberRole = 0;
  let provisioningKey = '';
  let repository = '';
  let username = '';

  const auth = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = auth()): Promise<Response> {
    return fetch(`${api}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(10_000) });
  }
  async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await call(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }
  const list = async <T>(path: string) => (await json<{ d: T[] }>('GET', path)).d;
  /**
   * Every row of a collection, page by page: the data API answers at most 1,000 rows a level,
   * and the journal passes 1,000 tags, fleets or devices in a full run (a CI run's 50 + 10
   * cycles read tag 930-something as missing when only the first page was read).
   */
  const listAll = async <T>(path: string) => {
    const rows: T[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await list<T>(`${path}&$orderby=id asc&$top=1000&$skip=${skip}`);
      rows.push(...page);
      if (page.length < 1000) return rows;
    }
  };

  async function registryToken(): Promise<string> {
    const q = new URLSearchParams({ service: `127.0.0.1:${port}`, scope: `repository:${repository}:push,pull` });
    const res = await fetch(`${api}/auth/v1/token?${q}`, { headers: { authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { token: string }).token;
  }

  beforeAll(async () => {
    expect(existsSync(MAIN), `${MAIN} missing: run npm run build -w @flotilla/server first`).toBe(true);
    dataDir = await mkdtemp(join(tmpdir(), 'flotilla-crash-'));
    port = await freePort();
    api = `http://127.0.0.1:${port}`;
    const smtpUrl = await inbox.start();
    env = { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', FLOTILLA_DATA_DIR: dataDir, FLOTILLA_PUBLIC_URL: api, FLOTILLA_ADMIN_PASSWORD: ADMIN_PASSWORD, SMTP_URL: smtpUrl };
    for (const k of ['FLOTILLA_EMBEDDED_PG_PORT', 'REDIS_URL', 'FLOTILLA_REGISTRY_URL', 'FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS', 'FLOTILLA_BILLING']) delete env[k];
    await startServer();

    const email = `crash-${randomBytes(4).toString('hex')}@example.com`;
    const reg = await fetch(`${api}/user/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse battery' }) });
    expect(reg.status).toBe(201);
    token = await reg.text();
    username = (await json<{ username: string }>('GET', '/actor/v1/whoami')).username;
    orgId = (await list<{ id: number }>(`/v7/organization?$select=id&$filter=handle eq '${username}'`))[0]!.id;
    deviceType = (await list<{ id: number }>(`/v7/device_type?$select=id&$filter=slug eq 'raspberrypi3'`))[0]!.id;
    memberRole = (await list<{ id: number }>(`/v7/organization_membership_role?$select=id&$filter=name eq 'member'`))[0]!.id;
    baseFleet = (await json<{ id: number }>('POST', '/v7/application', { app_name: 'crash-base', organization: orgId, is_for__device_type: deviceType })).id;
    provisioningKey = await json<string>('POST', `/api-key/application/${baseFleet}/provisioning`, {});
    // An image to push to, as `balena deploy` makes one.
    const release = await json<{ id: number }>('POST', '/v7/release', {
      belongs_to__application: baseFleet,
      commit: randomBytes(16).toString('hex'),
      status: 'running',
      source: 'cloud',
      composition: { version: '2.1', services: { main: { build: { context: '.' } } } },
    });
    const service =
      (await list<{ id: number }>(`/v7/service?$select=id&$filter=application eq ${baseFleet} and service_name eq 'main'`))[0]?.id ??
      (await json<{ id: number }>('POST', '/v7/service', { application: baseFleet, service_name: 'main' })).id;
    const image = await json<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
    await json('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
    repository = image.is_stored_at__image_location.slice(image.is_stored_at__image_location.indexOf('/') + 1);
  });

  afterAll(async () => {
    // Everything we started, whatever happened: the server (SIGKILL), then what it left.
    if (server) await killServer().catch(() => undefined);
    const pg = dataDir ? postmasterPid() : null;
    if (pg && alive(pg)) started.add(pg);
    for (const pid of started) {
      if (!alive(pid)) continue;
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      // Only our own processes (the pid may have been reused since).
      if (cmd.includes(dataDir) || cmd.includes(MAIN) || cmd.includes('process.stdin.on')) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
    await inbox.close().catch(() => undefined);
    if (dataDir) await removeDataDir(dataDir);
  });

  /** Concurrent writers until `stop()`: each write that got a 2xx goes into the journal. */
  function writers(cycle: number) {
    let running = true;
    let n = 0;
    const attempt = async (write: () => Promise<void>) => {
      try {
        await write();
      } catch {
        // refused or cut off: not acknowledged, may or may not have happened (never half)
        refused++;
        await sleep(20);
      }
    };
    const loop = async (write: () => Promise<void>) => {
      while (running) await attempt(write);
    };
    const id = () => `c${cycle}-${++n}-${randomBytes(2).toString('hex')}`;
    let uploadToken: Promise<string> | null = null;
    const loops = [
      loop(async () => {
        const name = `crash-${id()}`;
        const res = await call('POST', '/v7/application', { app_name: name, organization: orgId, is_for__device_type: deviceType });
        if (res.status !== 201) throw new Error(String(res.status));
        journal.fleets.set(name, ((await res.json()) as { id: number }).id);
      }),
      loop(async () => {
        const name = `V_${id().replace(/-/g, '_')}`;
        const value = randomBytes(6).toString('hex');
        const res = await call('POST', '/v7/application_environment_variable', { application: baseFleet, name, value });
        if (res.status !== 201) throw new Error(String(res.status));
        journal.variables.set(name, value);
      }),
      loop(async () => {
        const key = `t-${id()}`;
        const value = randomBytes(6).toString('hex');
        const res = await call('POST', '/v7/application_tag', { application: baseFleet, tag_key: key, value });
        if (res.status !== 201) throw new Error(String(res.status));
        journal.tags.set(key, value);
      }),
      loop(async () => {
        const uuid = randomBytes(16).toString('hex');
        const res = await call('POST', '/device/register', { application: baseFleet, uuid, device_type: 'raspberrypi3' }, { authorization: `Bearer ${provisioningKey}`, 'content-type': 'application/json' });
        if (res.status !== 201) throw new Error(String(res.status));
        journal.devices.add(uuid);
      }),
      loop(async () => {
        // Bounded, so the end phase's wait for the mail does not grow with the machine's speed
        // (a quiet CI machine queued 1,315 in 60 cycles; delivery ran past the 3-minute wait).
        if (journal.invitations.size >= MAX_INVITATIONS) {
          await sleep(200);
          return;
        }
        const invitee = `inv-${id()}@example.com`;
        const res = await call('POST', '/v7/invitee__is_invited_to__organization', { invitee, is_invited_to__organization: orgId, organization_membership_role: memberRole });
        if (res.status !== 201) throw new Error(String(res.status));
        journal.invitations.set(((await res.json()) as { id: number }).id, invitee);
      }),
      loop(async () => {
        // A blob upload begun, one chunk sent, and (mostly) left unfinished.
        uploadToken ??= registryToken();
        const headers = { authorization: `Bearer ${await uploadToken}` };
        const begun = await fetch(`${api}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers, signal: AbortSignal.timeout(10_000) });
        if (begun.status !== 202) throw new Error(String(begun.status));
        const location = begun.headers.get('location')!;
        const uuid = location.slice(location.lastIndexOf('/') + 1);
        journal.uploads.set(uuid, 0);
        const chunk = randomBytes(64 * 1024 + Math.floor(Math.random() * 64 * 1024));
        journal.partialDigests.add(sha256(chunk));
        const patched = await fetch(`${api}${location}`, {
          method: 'PATCH',
          headers: { ...headers, 'content-type': 'application/octet-stream', 'content-range': `0-${chunk.length - 1}` },
          body: chunk,
          signal: AbortSignal.timeout(10_000),
        });
        if (patched.status !== 202) throw new Error(String(patched.status));
        journal.uploads.set(uuid, chunk.length);
        if (Math.random() < 0.25) {
          // Completing it: if the PUT's answer is lost, the upload may be gone into a blob.
          const digest = sha256(chunk);
          journal.completing.set(uuid, digest);
          journal.partialDigests.delete(digest);
          const put = await fetch(`${api}${location}?digest=${digest}`, { method: 'PUT', headers, signal: AbortSignal.timeout(10_000) });
          if (put.status !== 201) throw new Error(String(put.status));
          journal.uploads.delete(uuid);
          journal.completing.delete(uuid);
          journal.blobs.add(digest);
        }
      }),
    ];
    return {
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  /** Every acknowledged write is there; nothing is half-done. */
  async function verify(where: string): Promise<void> {
    const fleets = await listAll<{ id: number; app_name: string; actor: { __id: number } | null; uuid: string }>(
      `/v7/application?$select=id,app_name,actor,uuid&$filter=organization eq ${orgId}`,
    );
    const byName = new Map(fleets.map((f) => [f.app_name, f]));
    for (const [name, id] of journal.fleets) expect(byName.get(name)?.id, `${where}: fleet ${name}`).toBe(id);
    // A fleet is made with its own actor (its provisioning keys belong to it) in one
    // transaction: no fleet, acknowledged or not, lacks it.
    for (const f of fleets) {
      expect(f.actor, `${where}: fleet ${f.app_name} without its actor`).not.toBeNull();
      expect(f.uuid, `${where}: fleet ${f.app_name} without its uuid`).toMatch(/^[0-9a-f]{32}$/);
    }
    const vars = new Map((await listAll<{ name: string; value: string }>(`/v7/application_environment_variable?$select=name,value&$filter=application eq ${baseFleet}`)).map((v) => [v.name, v.value]));
    for (const [name, value] of journal.variables) expect(vars.get(name), `${where}: variable ${name}`).toBe(value);
    const tags = new Map((await listAll<{ tag_key: string; value: string }>(`/v7/application_tag?$select=tag_key,value&$filter=application eq ${baseFleet}`)).map((t) => [t.tag_key, t.value]));
    for (const [key, value] of journal.tags) expect(tags.get(key), `${where}: tag ${key}`).toBe(value);
    const devices = await listAll<{ uuid: string; is_of__device_type: { __id: number } }>(`/v7/device?$select=uuid,is_of__device_type&$filter=belongs_to__application eq ${baseFleet}`);
    const uuids = new Set(devices.map((d) => d.uuid));
    for (const uuid of journal.devices) expect(uuids.has(uuid), `${where}: device ${uuid}`).toBe(true);
    for (const d of devices) expect(d.is_of__device_type?.__id, `${where}: device ${d.uuid} without its type`).toBe(deviceType);
    const invitations = new Map(
      (await listAll<{ id: number; invitee: { email: string }[] | { email: string } }>(
        `/v7/invitee__is_invited_to__organization?$select=id,invitee&$expand=invitee($select=email)&$filter=is_invited_to__organization eq ${orgId}`,
      )).map((i) => [i.id, Array.isArray(i.invitee) ? i.invitee[0]?.email : i.invitee.email]),
    );
    for (const [id, invitee] of journal.invitations) expect(invitations.get(id), `${where}: invitation ${id}`).toBe(invitee);
  }

  /** Acknowledged upload chunks are still there and resumable; completed blobs are there; partial data is no blob. */
  async function verifyRegistry(where: string, uploads: string[]): Promise<void> {
    const headers = { authorization: `Bearer ${await registryToken()}` };
    for (const uuid of uploads) {
      const bytes = journal.uploads.get(uuid)!;
      const res = await fetch(`${api}/v2/${repository}/blobs/uploads/${uuid}`, { headers });
      const completed = journal.completing.get(uuid);
      if (res.status === 404 && completed !== undefined) {
        // Its PUT went through though its answer was lost: the blob is there, whole.
        expect((await fetch(`${api}/v2/${repository}/blobs/${completed}`, { method: 'HEAD', headers })).status, `${where}: completed upload ${uuid}`).toBe(200);
        journal.uploads.delete(uuid);
        journal.blobs.add(completed);
        continue;
      }
      expect(res.status, `${where}: upload ${uuid}`).toBe(204);
      // At least what was acknowledged (a chunk whose 202 was lost in the crash may be in too).
      const end = Number(res.headers.get('range')!.split('-')[1]);
      if (bytes > 0) expect(end + 1, `${where}: upload ${uuid} bytes`).toBeGreaterThanOrEqual(bytes);
    }
    for (const digest of journal.blobs) {
      expect((await fetch(`${api}/v2/${repository}/blobs/${digest}`, { method: 'HEAD', headers })).status, `${where}: blob ${digest}`).toBe(200);
    }
    for (const digest of [...journal.partialDigests].slice(-20)) {
      expect((await fetch(`${api}/v2/${repository}/blobs/${digest}`, { method: 'HEAD', headers })).status, `${where}: unfinished upload counted as blob ${digest}`).toBe(404);
    }
  }

  const sizes = () =>
    `${journal.fleets.size} fleets, ${journal.variables.size} variables, ${journal.tags.size} tags, ${journal.devices.size} devices, ${journal.invitations.size} invitations, ${journal.uploads.size} open uploads, ${journal.blobs.size} blobs; ${refused} writes refused or cut off`;

  it(`${CYCLES} × kill -9 of the server during writes: every acknowledged write present after each restart`, async () => {
    const t0 = Date.now();
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const before = new Set(journal.uploads.keys());
      const w = writers(cycle);
      let pg: number | null = null;
      // The writers stop before anything is checked, even when this cycle fails.
      try {
        await sleep(300 + Math.random() * 1200);
        pg = postmasterPid();
        const watchdogs = childrenOf(server!.child.pid!).filter((p) => p !== pg);
        await killServer();
        // Every fifth cycle the watchdog dies with it (an OOM kill of both): the next start finds a
        // live orphan postmaster. Otherwise the watchdog stops PostgreSQL, maybe while we restart.
        if (cycle % 5 === 0) for (const p of watchdogs) process.kill(p, 'SIGKILL');
      } finally {
        await w.stop();
      }
      await startServer();
      if (pg !== null && cycle % 5 === 0) expect(running(pg), 'the orphan postmaster was stopped').toBe(false);
      await verify(`after server kill ${cycle}`);
      await verifyRegistry(`after server kill ${cycle}`, [...journal.uploads.keys()].filter((u) => !before.has(u)));
    }
    console.log(`[crash] ${CYCLES} server kills in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${sizes()}`);
  });

  it(`${PG_CYCLES} × kill -9 of the embedded PostgreSQL during writes: the server exits, the same command starts it again with every acknowledged write`, async () => {
    const t0 = Date.now();
    for (let cycle = 1; cycle <= PG_CYCLES; cycle++) {
      const w = writers(1000 + cycle);
      try {
        await sleep(300 + Math.random() * 1200);
        const pg = postmasterPid()!;
        process.kill(pg, 'SIGKILL');
        // A user expects no server answering 500 forever: it exits (non-zero) so a supervisor or
        // the user starts it again (docs/crash-safety.md).
        const code = await server!.exited;
        expect(server!.out()).toContain('the embedded PostgreSQL stopped unexpectedly (SIGKILL)');
        expect(code).toBe(1);
        server = undefined;
      } finally {
        await w.stop();
      }
      await startServer();
      await verify(`after PostgreSQL kill ${cycle}`);
    }
    console.log(`[crash] ${PG_CYCLES} PostgreSQL kills in ${((Date.now() - t0) / 1000).toFixed(1)} s; ${sizes()}`);
  });

  it('a stale postmaster.pid whose pid now belongs to another process does not stop the start', async () => {
    await killServer();
    // The watchdog stops PostgreSQL; then a power cut's leftover: the file naming a live, unrelated pid.
    const end = Date.now() + 30_000;
    while (existsSync(join(dataDir, 'postgres', 'postmaster.pid')) && Date.now() < end) await sleep(50);
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    started.add(other.pid!);
    try {
      writeFileSync(join(dataDir, 'postgres', 'postmaster.pid'), `${other.pid}\n${join(dataDir, 'postgres')}\n1700000000\n5432\n${join(dataDir, 'run')}\n\n  5432001    123456\nready   \n`);
      await startServer();
      await verify('after a stale postmaster.pid');
      expect(readFileSync(join(dataDir, 'logs', 'flotilla.log'), 'utf8')).toContain(`its pid ${other.pid} is now another process`);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('after the crashes: every queued invitation mail is delivered (at least once), and unfinished uploads are collected', async () => {
    const t0 = Date.now();
    await verifyRegistry('at the end', [...journal.uploads.keys()]);
    // Then the same data directory with a short upload lifetime (one more kill -9 and start):
    // the garbage job (every minute) drops every unfinished upload, its row and its file.
    // Meanwhile the mail: committed before a crash, it is delivered by a later server — at
    // once from its job queue, or (a delivery claimed when a server died) by the retry sweep
    // a minute later. Both waits are for a cron minute, so they run together.
    await killServer();
    env = { ...env, FLOTILLA_REGISTRY_UPLOAD_MAX_AGE_HOURS: '0.0001' };
    await startServer();
    const missing = () => [...journal.invitations.values()].filter((to) => inbox.to(to).length === 0);
    const uploadsDir = join(dataDir, 'registry', 'uploads');
    const left = () => readdirSync(uploadsDir).filter((u) => journal.uploads.has(u));
    const end = Date.now() + 180_000;
    let mailSeconds = '';
    while ((missing().length > 0 || left().length > 0) && Date.now() < end) {
      if (!mailSeconds && missing().length === 0) mailSeconds = ((Date.now() - t0) / 1000).toFixed(1);
      await sleep(500);
    }
    expect(missing()).toEqual([]);
    expect(left()).toEqual([]);
    const duplicates = [...journal.invitations.values()].filter((to) => inbox.to(to).length > 1).length;
    console.log(
      `[crash] ${journal.invitations.size} invitation mails delivered (${mailSeconds || ((Date.now() - t0) / 1000).toFixed(1)} s after the last crash); ${duplicates} delivered twice; unfinished uploads collected after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const headers = { authorization: `Bearer ${await registryToken()}` };
    for (const uuid of [...journal.uploads.keys()].slice(0, 20)) {
      expect((await fetch(`${api}/v2/${repository}/blobs/uploads/${uuid}`, { headers })).status).toBe(404);
    }
    for (const digest of journal.blobs) expect((await fetch(`${api}/v2/${repository}/blobs/${digest}`, { method: 'HEAD', headers })).status).toBe(200);
    console.log(`[crash] server starts: median ${starts.sort((a, b) => a - b)[Math.floor(starts.length / 2)]} ms, max ${starts[starts.length - 1]} ms over ${starts.length} starts`);
  });
});

describe('crash safety: kill -9 during the very first start', () => {
  let dir = '';
  const groups: number[] = [];
  afterAll(async () => {
    for (const pid of groups) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    const pg = (() => {
      try {
        return Number(readFileSync(join(dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return 0;
      }
    })();
    if (pg > 0 && alive(pg)) process.kill(pg, 'SIGKILL');
    if (dir) await removeDataDir(dir);
  });

  it('a first start killed while it creates the database, the keys and the password leaves nothing the next start trips on', async () => {
    dir = await mkdtemp(join(tmpdir(), 'flotilla-crash-first-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', FLOTILLA_DATA_DIR: dir, FLOTILLA_ADMIN_PASSWORD: ADMIN_PASSWORD };
    for (const k of ['FLOTILLA_EMBEDDED_PG_PORT', 'REDIS_URL', 'SMTP_URL']) delete env[k];
    const spawnServer = () => {
      const child = spawn(process.execPath, [MAIN], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      groups.push(child.pid!);
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      return { child, out: () => out, exited: new Promise<void>((resolve) => child.once('exit', () => resolve())) };
    };
    // The whole process group at once (a power cut, systemd's default KillMode): the server
    // and the initdb it runs. While initdb writes the cluster (twice, at different depths),
    // and while the first migrations run.
    const initdbRunning = () => existsSync(join(dir, 'postgres.init')) || existsSync(join(dir, 'postgres'));
    const migrating = () => {
      try {
        return readFileSync(join(dir, 'logs', 'flotilla.log'), 'utf8').includes('applied migration');
      } catch {
        return false;
      }
    };
    for (const [when, extra] of [
      [initdbRunning, 150],
      [initdbRunning, 700],
      [migrating, 0],
    ] as const) {
      const s = spawnServer();
      const until = Date.now() + 120_000;
      let gone = false;
      void s.exited.then(() => (gone = true));
      while (!when() && !gone && Date.now() < until) await sleep(10);
      await sleep(extra);
      try {
        process.kill(-s.child.pid!, 'SIGKILL');
      } catch {
        // exited already
      }
      await s.exited;
      // The watchdog (its own group), if it got started, stops the PostgreSQL it watched.
      const end = Date.now() + 30_000;
      while (existsSync(join(dir, 'postgres', 'postmaster.pid')) && Date.now() < end) await sleep(100);
      if (migrating()) break;
    }
    const s = spawnServer();
    let up = false;
    const end = Date.now() + 120_000;
    let done = false;
    void s.exited.then(() => (done = true));
    while (!up && !done && Date.now() < end) {
      up = await fetch(`http://127.0.0.1:${port}/ping`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (!up) await sleep(100);
    }
    expect(up, s.out()).toBe(true);
    const login = await fetch(`http://127.0.0.1:${port}/login_`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@flotilla.local', password: ADMIN_PASSWORD }) });
    expect(login.status).toBe(200);
    expect(existsSync(join(dir, 'postgres.init'))).toBe(false);
    const exited = s.exited;
    s.child.kill('SIGTERM');
    await exited;
  });
});
