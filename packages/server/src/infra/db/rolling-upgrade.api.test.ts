import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTestDb, signUp, type TestApp } from '../../../test/harness.js';
import { createFleet, deviceTypeId, requester } from '../../../test/support/fleet-helpers.js';
import { insertDevice } from '../../../test/support/cloud-link.js';
import { freePort } from '../../../test/support/net.js';
import { MIGRATIONS_DIR } from '../../paths.js';
import { migrate } from './migrate.js';
import { checkMigration } from './migration-rules.js';

// Rolling upgrades (docs/deploy.md): nodes of one database start together and migrate under
// the advisory lock; a node keeps serving while a newer release's (expand-only) migration is
// applied under it. The "old node" below is this code base; the "new release" is a migration
// written the way the rule allows (and one the rule refuses, to show what the rule prevents).

const root = new URL('../../../../../', import.meta.url).pathname;
const serverVersion = (JSON.parse(await readFile(join(root, 'packages/server/package.json'), 'utf8')) as { version: string }).version;

interface Node {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** `main.ts` as a process (what `npm start` and the systemd unit run), on an external database. */
function startNode(env: Record<string, string>, port: number): Node {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port, output: () => out, exited };
}

/** Resolves once the banner's last line is printed; fails when the node exits first. */
async function ready(node: Node): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (node.output().includes('Press Ctrl-C to stop.')) return;
    if (node.child.exitCode !== null) throw new Error(`node on ${node.port} exited with ${node.child.exitCode}:\n${node.output()}`);
    if (Date.now() > deadline) throw new Error(`node on ${node.port} did not start:\n${node.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

describe('rolling upgrades', () => {
  it('two nodes started at the same moment on one empty database both come up, migrated once, sharing sessions', { timeout: 240_000 }, async () => {
    const { db, url, drop } = await createTestDb({ empty: true });
    cleanups.push(drop);
    const shared = {
      DATABASE_URL: url,
      FLOTILLA_JWT_SECRET: 'rolling-upgrade-test-jwt-secret-0123456789abcdef',
      FLOTILLA_SECRETS_KEY: 'rolling-upgrade-test-secrets-key-0123456789abcdef',
      FLOTILLA_ADMIN_EMAIL: 'admin@rolling.example.com',
      FLOTILLA_ADMIN_PASSWORD: 'rolling-admin-password',
    };
    const nodes: Node[] = [];
    for (const name of ['a', 'b']) {
      const dataDir = await mkdtemp(join(tmpdir(), `flotilla-rolling-${name}-`));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      nodes.push(startNode({ ...shared, FLOTILLA_DATA_DIR: dataDir }, await freePort()));
    }
    cleanups.push(async () => {
      for (const n of nodes) {
        if (n.child.exitCode === null && n.child.pid) process.kill(-n.child.pid, 'SIGKILL');
      }
    });
    await Promise.all(nodes.map(ready));

    for (const n of nodes) {
      const ping = await fetch(`http://127.0.0.1:${n.port}/ping`);
      expect(await ping.text()).toBe('OK');
    }
    // Every migration once, the administrator once.
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.+\.sql$/.test(f));
    const applied = await db.query<{ name: string }>('SELECT name FROM flotilla_migration ORDER BY name');
    expect(applied.rows.map((r) => r.name)).toEqual([...files].sort());
    const admins = await db.query('SELECT id FROM "user" WHERE email = $1', [shared.FLOTILLA_ADMIN_EMAIL]);
    expect(admins.rowCount).toBe(1);
    // A session from one node is good on the other (and both read the same database).
    const login = await fetch(`http://127.0.0.1:${nodes[0]!.port}/login_`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: shared.FLOTILLA_ADMIN_EMAIL, password: shared.FLOTILLA_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const token = await login.text();
    const me = await fetch(`http://127.0.0.1:${nodes[1]!.port}/actor/v1/whoami`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(shared.FLOTILLA_ADMIN_EMAIL);

    // A clean stop of both (SIGTERM, as systemd and Kubernetes send it).
    for (const n of nodes) n.child.kill('SIGTERM');
    expect(await Promise.all(nodes.map((n) => n.exited))).toEqual([0, 0]);
  });

  describe('a running node and the next release\'s migration', () => {
    let t: TestApp;
    let migrations: string;
    afterAll(async () => {
      await t?.close();
      if (migrations) await rm(migrations, { recursive: true, force: true });
    });

    it('keeps serving reads and writes, unchanged, while an expand-only migration is applied under it', { timeout: 120_000 }, async () => {
      t = await buildTestApp();
      migrations = await mkdtemp(join(tmpdir(), 'flotilla-next-release-'));
      const call = requester(t.app);
      const owner = await signUp(t.app);
      const fleet = await createFleet(t.app, t.db, owner, `rolling-${Date.now()}`);
      const device = await insertDevice(t.db, fleet);
      const deviceUrl = `/v7/device(${device.id})`;
      const deviceType = await deviceTypeId(t.db, 'raspberrypi3');
      const before = (await call(owner.token, 'GET', deviceUrl)).json<{ d: Record<string, unknown>[] }>().d[0]!;

      // The next release's migration: new columns (nullable, defaulted), a new table, an index.
      // It holds its locks for a second, as a real migration would, while requests arrive.
      const expand = `
        ALTER TABLE "device" ADD COLUMN "next_release_label" varchar(255);
        ALTER TABLE "device" ADD COLUMN "next_release_rank" integer NOT NULL DEFAULT 0;
        ALTER TABLE "application" ADD COLUMN "next_release_note" text;
        CREATE TABLE "next_release_probe" ("id" serial PRIMARY KEY, "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE, "value" text);
        CREATE INDEX "device_next_release_label_idx" ON "device" ("next_release_label");
        SELECT pg_sleep(1);
      `;
      expect(checkMigration('0900_next_release.sql', expand, serverVersion)).toEqual([]);
      await writeFile(join(migrations, '0900_next_release.sql'), expand);

      // What the node's clients do meanwhile: read devices and fleets, change a device, make
      // fleets, and a device polling its target state.
      const statuses: string[] = [];
      let n = 0;
      const traffic = async (stop: () => boolean) => {
        while (!stop()) {
          n++;
          const rs = await Promise.all([
            call(owner.token, 'GET', `/v7/device?$filter=belongs_to__application eq ${fleet}&$expand=belongs_to__application`),
            call(owner.token, 'PATCH', deviceUrl, { note: `note ${n}` }),
            call(owner.token, 'GET', `/v7/application(${fleet})?$expand=owns__device`),
            call(owner.token, 'POST', '/v7/application', { app_name: `rolling-${n}-${Date.now()}`, organization: owner.orgId, is_for__device_type: deviceType }),
            t.app.inject({ method: 'GET', url: `/device/v3/${device.uuid}/state`, headers: { authorization: `Bearer ${device.key}` } }),
          ]);
          statuses.push(rs.map((r) => r.statusCode).join(','));
          for (const r of rs) if (r.statusCode >= 400) throw new Error(`${r.statusCode} during the migration: ${r.body}`);
        }
      };
      let migrated = false;
      const running = traffic(() => migrated);
      const applied = await migrate(t.db, () => undefined, migrations);
      migrated = true;
      await running;
      expect(applied).toEqual(['0900_next_release.sql']);
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set(['200,200,200,201,200']));

      // After it: the same answers as before (no new field leaks to the old clients), writes work.
      const after = (await call(owner.token, 'GET', deviceUrl)).json<{ d: Record<string, unknown>[] }>().d[0]!;
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      expect(after.note).toBe(`note ${n}`);
      expect((await call(owner.token, 'PATCH', deviceUrl, { note: 'after' })).statusCode).toBe(200);
      const { rows } = await t.db.query<{ next_release_rank: number }>('SELECT next_release_rank FROM device WHERE id = $1', [device.id]);
      expect(rows[0]!.next_release_rank).toBe(0);
    });

    it('breaks under a contract step the rule refuses (a renamed column): why contracts wait a release', { timeout: 60_000 }, async () => {
      const rename = 'ALTER TABLE "device" RENAME COLUMN "note" TO "note_text";';
      expect(checkMigration('0901_rename_note.sql', rename, serverVersion).map((v) => v.what)).toEqual(['renames (old code uses the old name)']);
      await writeFile(join(migrations, '0901_rename_note.sql'), rename);
      expect(await migrate(t.db, () => undefined, migrations)).toEqual(['0901_rename_note.sql']);
      const owner = await signUp(t.app);
      const fleet = await createFleet(t.app, t.db, owner, `renamed-${Date.now()}`);
      const device = await insertDevice(t.db, fleet);
      const res = await requester(t.app)(owner.token, 'PATCH', `/v7/device(${device.id})`, { note: 'x' });
      // The node still running the previous code cannot write the device any more.
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
    });
  });
});
