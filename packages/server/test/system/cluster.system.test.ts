import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { getSdk } from 'balena-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../support/cloud-link.js';
import { removeByLabel, startTestEngine, type TestEngine } from '../support/engine.js';
import { freePort } from '../support/net.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { TerminalClient } from '../support/terminal-client.js';
import { GiveUp, HAPROXY_CFG, Proc, REPO_ROOT, haproxyEnv, startHaproxy, startNode, startPostgres, until, type NodeSettings, type Postgres } from './support/cluster.js';

/*
 * Issue 21, item 1: two Flotilla nodes (the built server) on one Debian PostgreSQL and one
 * Redis behind HAProxy with the shipped deploy/haproxy/haproxy.cfg, under load from real
 * agents, a browser, log and terminal streams and API writers; one node is killed with
 * SIGKILL. What "acknowledged" means on each channel is in docs/decisions.md (Issue 21 —
 * two-node cluster) and docs/cluster-test.md.
 */

const run = promisify(execFile);
const AGENT_BIN = join(REPO_ROOT, 'packages/agent/bin/flotilla-agent.mjs');
const DEVICE_TYPE = 'raspberrypi4-64';
const PASSWORD = 'cluster-test-password-1';
/** The issue's bound: agents and browsers reconnect to the surviving node within 30 s. */
const RECONNECT_BOUND_MS = 30_000;
const SIMULATED_DEVICES = Number(process.env.FLOTILLA_CLUSTER_SIM_DEVICES ?? 200);
/** Fleet poll interval (ms): agents and the simulator poll this often, so a dead node shows quickly. */
const POLL_MS = 5_000;
const CHROMIUM = process.env.FLOTILLA_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

let tmp: string;
let postgres: Postgres | undefined;
let redis: RedisServer | undefined;
let smtp: SmtpInbox | undefined;
let engine: TestEngine | undefined;
let haproxy: Proc | undefined;
const nodes: Proc[] = [];
const nodeSettings: NodeSettings[] = [];
let agent: Proc | undefined;
let simulator: Proc | undefined;
let browser: Browser | undefined;
let db: pg.Pool;
let base: string;
const closers: (() => unknown)[] = [];

interface Owner {
  token: string;
  username: string;
  orgId: number;
}
let owner: Owner;
let silent: { uuid: string; key: string; id: number };

async function api<T = unknown>(method: string, path: string, body?: unknown, token = owner?.token): Promise<{ status: number; body: T; text: string }> {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // text answers (tokens, OK)
  }
  return { status: res.status, body: parsed as T, text };
}

async function ok<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await api<T>(method, path, body, token ?? owner?.token);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 400)}`);
  return res.body;
}

const eq = (field: string, value: string | number) => encodeURIComponent(`${field} eq ${typeof value === 'number' ? value : `'${value}'`}`);

async function signUp(email: string): Promise<Owner> {
  const token = String(await ok('POST', '/user/register', { email, password: PASSWORD }, ''));
  const { username } = await ok<{ username: string }>('GET', '/actor/v1/whoami', undefined, token);
  const org = await ok<{ d: { id: number }[] }>('GET', `/v7/organization?$filter=${eq('handle', username)}&$select=id`, undefined, token);
  return { token, username, orgId: org.d[0]!.id };
}

async function createFleet(name: string, pollMs = POLL_MS): Promise<{ id: number; provisioningKey: string }> {
  const dt = await ok<{ d: { id: number }[] }>('GET', `/v7/device_type?$filter=${eq('slug', DEVICE_TYPE)}&$select=id`);
  const fleet = await ok<{ id: number }>('POST', '/v7/application', { app_name: name, organization: owner.orgId, is_for__device_type: dt.d[0]!.id });
  await ok('POST', '/v7/application_config_variable', { application: fleet.id, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: String(pollMs) });
  const provisioningKey = await ok<string>('POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet.id, roles: ['provisioning-api-key'] });
  return { id: fleet.id, provisioningKey };
}

/** A device registered through the device API, as an agent does; returns its uuid and key. */
async function registerDevice(fleetId: number, provisioningKey: string): Promise<{ uuid: string; key: string; id: number }> {
  const uuid = randomBytes(16).toString('hex');
  const key = randomBytes(16).toString('hex');
  const res = await ok<{ id: number }>(
    'POST',
    '/device/register',
    { application: fleetId, uuid, device_type: DEVICE_TYPE, api_key: key, supervisor_version: '16.0.0', os_version: 'balenaOS 5.0.0', os_variant: 'prod' },
    provisioningKey,
  );
  return { uuid, key, id: res.id };
}

/** Test arrangement (as the billing api tests do): the organization's active subscription, its period ending at `end`. */
async function subscribe(orgId: number, code: string, end: Date): Promise<void> {
  await db.query('UPDATE subscription SET is_active = false WHERE is_for__organization = $1', [orgId]);
  await db.query(
    `INSERT INTO subscription (is_for__organization, is_for__plan, billing_cycle, starts_on__date, current_period_ends_on__date)
     SELECT $1, id, 'monthly', $3::timestamptz - interval '1 month', $3 FROM plan WHERE billing_code = $2`,
    [orgId, code, end],
  );
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'flotilla-cluster-'));
  const distOk = await readFile(join(REPO_ROOT, 'packages/server/dist/main.mjs')).then(() => true, () => false);
  if (!distOk) throw new Error('packages/server/dist/main.mjs is missing: run `npm run build` first (the system tier tests the built server)');
  [postgres, redis, smtp, engine] = await Promise.all([startPostgres(), startRedis(), (async () => {
    const inbox = new SmtpInbox();
    await inbox.start();
    return inbox;
  })(), startTestEngine()]);
  db = new pg.Pool({ connectionString: postgres.url, max: 3 });
  const haproxyPort = await freePort();
  base = `http://127.0.0.1:${haproxyPort}`;
  const shared = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    FLOTILLA_JWT_SECRET: randomBytes(32).toString('hex'),
    FLOTILLA_SECRETS_KEY: randomBytes(32).toString('hex'),
    FLOTILLA_PUBLIC_URL: base,
    FLOTILLA_TRUST_PROXY: '1',
    FLOTILLA_ADMIN_PASSWORD: 'cluster-admin-password-1',
    SMTP_URL: smtp.url,
    // Billing on, so the invoice run is a job (the owner's organization gets a plan that holds the fleet).
    FLOTILLA_BILLING: 'on',
    FLOTILLA_CODE_HOST_RAW_URL: 'http://127.0.0.1:9',
    LOG_LEVEL: 'warn',
  };
  for (const name of ['node1', 'node2']) {
    nodeSettings.push({ name, port: await freePort(), dataDir: await mkdtemp(join(tmp, `${name}-`)), env: shared });
  }
  // One after the other: the first applies the migrations on the empty database.
  for (const s of nodeSettings) nodes.push(await startNode(s));
  haproxy = await startHaproxy(haproxyPort, nodeSettings.map((s) => `127.0.0.1:${s.port}`));
  owner = await signUp(`cluster-owner-${randomBytes(3).toString('hex')}@example.com`);
  await subscribe(owner.orgId, 'production-v2', new Date(Date.now() + 30 * 24 * 3600_000));
  // The jobs test's silent device is set up first, so heartbeat sweeps run on it while the
  // other test runs (the cron's finest slot is a minute).
  // Every transition of the device's heartbeat state, recorded by the database itself.
  await db.query(`CREATE TABLE IF NOT EXISTS cluster_test_heartbeat (device int, old text, new text, at timestamptz DEFAULT now())`);
  await db.query(`CREATE OR REPLACE FUNCTION cluster_test_heartbeat() RETURNS trigger AS $$
    BEGIN
      IF NEW.api_heartbeat_state IS DISTINCT FROM OLD.api_heartbeat_state THEN
        INSERT INTO cluster_test_heartbeat (device, old, new) VALUES (NEW.id, OLD.api_heartbeat_state, NEW.api_heartbeat_state);
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await db.query(`DROP TRIGGER IF EXISTS cluster_test_heartbeat ON device`);
  await db.query(`CREATE TRIGGER cluster_test_heartbeat AFTER UPDATE OF api_heartbeat_state ON device FOR EACH ROW EXECUTE FUNCTION cluster_test_heartbeat()`);

  // A silent device: one poll, then nothing (poll interval 1 s: offline after ~2.7 s, moved by the next sweep).
  const fleet = await createFleet('cluster-jobs', 1_000);
  silent = await registerDevice(fleet.id, fleet.provisioningKey);
  await ok('GET', `/device/v3/${silent.uuid}/state`, undefined, silent.key);
}, 240_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await simulator?.stop();
  await agent?.stop();
  await haproxy?.stop();
  for (const n of nodes) await n.stop();
  await db?.end().catch(() => undefined);
  await redis?.stop();
  await smtp?.close();
  await postgres?.stop();
  if (engine) {
    // What the agents made (the run's engine is this file's own).
    await removeByLabel(engine, 'io.flotilla.device-uuid');
    await engine.stop();
  }
  if (tmp) await rm(tmp, { recursive: true, force: true });
}, 120_000);

describe('two Flotilla nodes behind HAProxy (deploy/haproxy/haproxy.cfg)', () => {
  it('the shipped HAProxy file is valid with the variables a CI, Compose or Kubernetes installation sets', async () => {
    const check = (env: Record<string, string>) =>
      run('/usr/sbin/haproxy', ['-c', '-f', HAPROXY_CFG], { env: { ...process.env, ...env } }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, out: err.stdout + err.stderr }),
      );
    expect((await check(haproxyEnv('127.0.0.1:18080', ['127.0.0.1:18081', '127.0.0.1:18082', '127.0.0.1:18083']))).code).toBe(0);
    // Compose: the defaults (service names flotilla-1, flotilla-2 not resolvable here: a warning, not an error).
    expect((await check({})).code).toBe(0);
    // Kubernetes: a headless Service's DNS name.
    expect((await check({ FLOTILLA_NODES_DNS: 'flotilla.default.svc.cluster.local:8080', FLOTILLA_NODES_MAX: '8' })).code).toBe(0);
    // And the variables are really read: a bad port in a node address or the bind is refused.
    expect((await check({ FLOTILLA_NODE_1: '127.0.0.1:99999' })).code).not.toBe(0);
    expect((await check({ FLOTILLA_HAPROXY_BIND: '127.0.0.1:99999' })).code).not.toBe(0);
  });

  it('kill -9 of one node under load: everything reconnects through HAProxy within 30 s and nothing acknowledged is lost', async () => {
    const fleet = await createFleet('cluster-fleet');

    // --- a real agent (podman engine; the host shell serves the web terminal) ------------
    const agentDir = await mkdtemp(join(tmp, 'agent-'));
    const agentConfig = join(agentDir, 'config.json');
    await writeFile(
      agentConfig,
      JSON.stringify({ apiEndpoint: base, applicationId: fleet.id, deviceType: DEVICE_TYPE, apiKey: fleet.provisioningKey, appUpdatePollInterval: POLL_MS, updateLockPath: join(agentDir, 'lock') }),
    );
    agent = Proc.spawn('agent', process.execPath, [AGENT_BIN, 'run', '--config', agentConfig, '--engine', 'podman', '--allow-host-shell'], { ...process.env, ...engine!.env, DOCKER_HOST: engine!.dockerHost });
    const agentDevice = await until('the agent registered, its key written back', 60_000, async () => {
      const c = JSON.parse(await readFile(agentConfig, 'utf8')) as { uuid?: string; deviceApiKey?: string };
      return c.uuid && c.deviceApiKey ? { uuid: c.uuid, key: c.deviceApiKey } : undefined;
    });
    await until('the agent online with its cloud link', 60_000, async () => {
      const r = await db.query(`SELECT 1 FROM device d JOIN cloud_link l ON l.device = d.id WHERE d.uuid = $1`, [agentDevice.uuid]);
      return r.rowCount === 1;
    });

    // --- a reporter device: numbered state reports (acknowledged = 2xx) -------------------
    const reporter = await registerDevice(fleet.id, fleet.provisioningKey);
    let lastAckedReport = 0;
    let reportSeq = 0;

    // --- log readers (GET …/logs?stream=1) and the log writer (POST …/logs) -----------------
    const ackedLines = new Set<string>();
    // Four streams opened one after the other (before the simulator's polls interleave):
    // round robin puts some on each node.
    const readers = Array.from({ length: 4 }, () => new LogReader(agentDevice.uuid));
    for (const r of readers) {
      r.start();
      await until('a log stream open', 10_000, async () => r.connected);
    }

    // --- web terminals on the agent's host shell, running `cat` ---------------------------
    // Round robin alternates, but other requests interleave: open sessions until both nodes
    // relay one (the audit row names the relaying process), so the kill surely cuts one.
    const typists: Typist[] = [];
    for (let relays = 0; relays < 2 && typists.length < 8; ) {
      const t = new Typist(agentDevice.uuid);
      await t.open();
      typists.push(t);
      const r = await db.query(`SELECT count(DISTINCT server_instance)::int AS n FROM terminal_session WHERE ended_at IS NULL AND device = (SELECT id FROM device WHERE uuid = $1)`, [agentDevice.uuid]);
      relays = r.rows[0].n;
    }
    expect(typists.length, 'terminal sessions on both nodes').toBeLessThan(8);

    // --- the simulator: a few hundred devices polling, reporting, each with a cloud link ---
    const simDir = await mkdtemp(join(tmp, 'sim-'));
    const simFleet = await createFleet('cluster-simulated');
    simulator = Proc.spawn('simulate', process.execPath, [
      AGENT_BIN, 'simulate', '--api', base, `--provisioning-key=${simFleet.provisioningKey}`, '--count', String(SIMULATED_DEVICES),
      '--fleet', String(simFleet.id), '--device-type', DEVICE_TYPE, '--seed', '21', '--ramp', '10', '--log-rate', '6',
      '--stats-file', join(simDir, 'stats.json'), '--quiet',
    ], process.env);
    type SimStats = { at: string; devices: number; linked: number; polls: number; reports: number };
    const simStats = async () => JSON.parse(await readFile(join(simDir, 'stats.json'), 'utf8')) as SimStats;
    await until(`${SIMULATED_DEVICES} simulated devices linked`, 90_000, async () => {
      if (!simulator!.running) throw new GiveUp(`the simulator exited (${simulator!.exitInfo})`);
      return (await simStats()).linked === SIMULATED_DEVICES;
    }, 1_000).catch(async (err: Error) => {
      throw new Error(`${err.message}: ${await readFile(join(simDir, 'stats.json'), 'utf8').catch(() => 'no stats')}\n${simulator!.output()}`);
    });

    // --- a browser on the dashboard, showing the agent's live logs ----------------------------
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const page = await browser.newPage({ baseURL: base });
    await dashboardSignIn(page);
    await page.goto(`/devices/${agentDevice.uuid}`);
    const panel = page.getByRole('region', { name: 'Logs' });
    await panel.getByTestId('device-logs-status').and(page.locator('[data-status="live"]')).waitFor({ timeout: 30_000 });

    // --- load: writers, actions, reports, log lines, keystrokes ----------------------------
    const sdk = getSdk({ apiUrl: base, dataDirectory: false, isBrowser: false });
    await sdk.auth.loginWithToken(owner.token);
    const ackedTags: string[] = [];
    let writeFailures = 0;
    let ackedIdentify = 0;
    let lastIdentifyAt = 0;
    const lineAckedAt = new Map<string, number>();
    let stop = false;
    const loops: Promise<void>[] = [];
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let w = 0; w < 3; w++) {
      loops.push(
        (async () => {
          for (let i = 0; !stop; i++) {
            const key = `w${w}-${i}`;
            try {
              await sdk.models.device.tags.set(agentDevice.uuid, key, `value-${i}`);
              ackedTags.push(key);
            } catch {
              writeFailures += 1;
              await pause(200);
            }
          }
        })(),
      );
    }
    loops.push(
      (async () => {
        while (!stop) {
          try {
            await sdk.models.device.identify(agentDevice.uuid);
            ackedIdentify += 1;
            lastIdentifyAt = Date.now();
          } catch {
            // not acknowledged (the link or the node was down): asked again next round
          }
          await pause(1_000);
        }
      })(),
    );
    loops.push(
      (async () => {
        while (!stop) {
          const n = ++reportSeq;
          const res = await api('PATCH', '/device/v3/state', { [reporter.uuid]: { provisioning_progress: n, status: 'Idle' } }, reporter.key).catch(() => ({ status: 0 }));
          if (res.status >= 200 && res.status < 300) lastAckedReport = n;
          await pause(100);
        }
      })(),
    );
    loops.push(
      (async () => {
        for (let n = 0; !stop; n++) {
          const message = `cluster-line-${n}`;
          const res = await api('POST', `/device/v2/${agentDevice.uuid}/logs`, [{ message, timestamp: Date.now(), isSystem: false, isStdErr: false }], agentDevice.key).catch(() => ({ status: 0 }));
          if (res.status >= 200 && res.status < 300) {
            ackedLines.add(message);
            lineAckedAt.set(message, Date.now());
          }
          await pause(res.status === 429 ? 1_000 : 100);
        }
      })(),
    );
    for (const t of typists) loops.push(t.typeUntil(() => stop));

    await pause(5_000);
    const beforeKill = { tags: ackedTags.length, lines: ackedLines.size, identify: ackedIdentify, keys: typists.map((t) => t.echoed) };
    expect(beforeKill.tags, 'writes acknowledged before the kill').toBeGreaterThan(0);
    expect(beforeKill.lines).toBeGreaterThan(0);

    // --- kill -9 node1 ---------------------------------------------------------------------
    const killedAt = Date.now();
    await nodes[0]!.kill9();

    // Reconnection within the issue's bound (generous: HAProxy marks the node down after ≤ 2
    // failed checks 2 s apart, clients back off; the bound is the issue's 30 s, not a target).
    const within = killedAt + RECONNECT_BOUND_MS;
    const reconnected = (what: string, probe: () => Promise<boolean>) =>
      until(`${what} reconnected within ${RECONNECT_BOUND_MS / 1000} s of the kill`, Math.max(1_000, within - Date.now()), async () => (await probe()) || undefined, 250);
    // "Reconnected" = working again after the kill: a line read, a keystroke echoed, an action
    // answered, a poll stored — each at least a second after it (not a reply already in flight).
    const afterKill = killedAt + 1_000;
    await reconnected('the log readers', async () => readers.every((r) => r.connected && r.linesSince(afterKill) > 0));
    await reconnected('the terminals', async () => typists.every((t) => t.live && t.lastEchoAt > afterKill));
    let agentState = 'not probed';
    await reconnected('the agent (poll and cloud link)', async () => {
      const r = await db.query(
        `SELECT d.api_heartbeat_at > to_timestamp($2 / 1000.0) AS polled, l.device IS NOT NULL AS linked
           FROM device d LEFT JOIN cloud_link l ON l.device = d.id WHERE d.uuid = $1`,
        [agentDevice.uuid, killedAt],
      );
      agentState = `polled ${r.rows[0]?.polled}, linked ${r.rows[0]?.linked}, identify answered ${lastIdentifyAt > afterKill} (${lastIdentifyAt - killedAt} ms after the kill)`;
      // identify answers 2xx only once the agent answered over its cloud link.
      return r.rows[0]?.polled === true && r.rows[0]?.linked === true && lastIdentifyAt > afterKill;
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${agentState}\nthe agent's last lines:\n${agent!.output(60)}`);
    });
    await reconnected('the simulated devices (polls and cloud links)', async () => {
      const s = await simStats();
      const polled = await db.query(`SELECT count(*)::int AS n FROM device WHERE belongs_to__application = $1 AND api_heartbeat_at > to_timestamp($2 / 1000.0)`, [simFleet.id, killedAt]);
      return Date.parse(s.at) > afterKill && s.linked === SIMULATED_DEVICES && polled.rows[0].n === SIMULATED_DEVICES;
    });
    await reconnected('the browser live view', async () => {
      // A line acknowledged after the kill shows in the dashboard's live view.
      const after = [...lineAckedAt].filter(([, at]) => at > afterKill).map(([m]) => m);
      if (after.length === 0) return false;
      const status = await panel.getByTestId('device-logs-status').getAttribute('data-status');
      return status === 'live' && (await panel.getByText(after.at(-1)!, { exact: true }).count()) > 0;
    });
    const reconnectSeconds = (Date.now() - killedAt) / 1000;

    // A little more load on the surviving node, then stop and check.
    await pause(3_000);
    stop = true;
    await Promise.all(loops);

    // No lost writes: every tag whose write got a 2xx is there.
    // Read from the database: the data API answers at most 1,000 rows a level, and a run on a
    // quiet machine acknowledges more tags than that (balena-sdk's getAllByDevice read one page).
    const tags = await db.query<{ tag_key: string }>('SELECT t.tag_key FROM device_tag t JOIN device d ON d.id = t.device WHERE d.uuid = $1', [agentDevice.uuid]);
    const stored = new Set(tags.rows.map((t) => t.tag_key));
    expect(ackedTags.filter((k) => !stored.has(k)), 'acknowledged tag writes missing').toEqual([]);
    expect(ackedTags.length).toBeGreaterThan(beforeKill.tags);
    // No lost actions: every identify that got a 2xx reached the agent (it logs each one).
    expect(agent.lines(/identify: blinking the LED/).length).toBeGreaterThanOrEqual(ackedIdentify);
    expect(ackedIdentify).toBeGreaterThan(beforeKill.identify);
    // No lost state report: the stored state is the last acknowledged report's (not an older one).
    const rep = await db.query(`SELECT provisioning_progress FROM device WHERE uuid = $1`, [reporter.uuid]);
    expect(Number(rep.rows[0].provisioning_progress)).toBeGreaterThanOrEqual(lastAckedReport);
    expect(lastAckedReport).toBeGreaterThan(0);
    // No lost log line: every acknowledged line is stored, and every reader received it; no
    // stream delivered a line twice.
    const storedLines = await ok<{ message: string }[]>('GET', `/device/v2/${agentDevice.uuid}/logs?count=1000`);
    const storedSet = new Set(storedLines.map((l) => l.message));
    expect([...ackedLines].filter((m) => !storedSet.has(m)), 'acknowledged log lines not stored').toEqual([]);
    await until('the readers to receive every acknowledged line', 10_000, async () => readers.every((r) => [...ackedLines].every((m) => r.seen.has(m))));
    for (const r of readers) expect(r.duplicates, 'a line delivered twice on one stream').toEqual([]);
    // At least one reader and one terminal were on the killed node and had to reconnect
    // (round robin put consecutive connections on both nodes).
    expect(readers.some((r) => r.connections > 1), 'a log stream was cut by the kill').toBe(true);
    expect(typists.some((t) => t.sessions > 1), 'a terminal was cut by the kill').toBe(true);
    // No lost keystroke: every keystroke typed on an open session was echoed; at most the one
    // in flight when its session was cut was not (the typist types one at a time).
    for (const t of typists) {
      expect(t.unechoed.length, `keystrokes typed on a live session and never echoed: ${t.unechoed.join(',')}`).toBeLessThanOrEqual(t.sessions - 1);
      expect(t.echoed).toBeGreaterThan(beforeKill.keys[typists.indexOf(t)]!);
    }
    for (const r of readers) r.stop();
    for (const t of typists) await t.close();
    console.log(`cluster: reconnected ${reconnectSeconds.toFixed(1)} s after the kill; ${ackedTags.length} writes, ${ackedLines.size} log lines, ${ackedIdentify} actions, ${typists.map((t) => t.echoed).join('+')} keystrokes acknowledged; ${writeFailures} failed writes`);

    // The killed node comes back with the same command and takes traffic again.
    nodes[0] = await startNode(nodeSettings[0]!);
    await until('HAProxy to route to the restarted node again', 20_000, async () => (await fetch(`${base}/ping`)).ok);
  });

  it('jobs run once with both nodes up: mail, the heartbeat sweep, the invoice run', async () => {
    // Invoices: an organization whose period ended an hour ago; the period close asked twice
    // at once (two jobs in its queue, one per node's worker) must still bill it once.
    const billed = await signUp(`cluster-billing-${randomBytes(3).toString('hex')}@example.com`);
    await subscribe(billed.orgId, 'prototype-v2', new Date(Date.now() - 3600_000));
    const closeJobs = await db.query<{ id: string }>(`INSERT INTO pgboss.job (name, data) VALUES ('billing-period-close', '{}'), ('billing-period-close', '{}') RETURNING id`);
    await until('both period-close jobs done', 60_000, async () => {
      const r = await db.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE id = ANY($1::uuid[])`, [closeJobs.rows.map((j) => j.id)]);
      return r.rows.length === 2 && r.rows.every((j) => j.state === 'completed');
    }, 500);

    // Mail: sign-ups through HAProxy (round robin over both nodes), each queues one verification mail.
    const tag = randomBytes(3).toString('hex');
    const emails = Array.from({ length: 6 }, (_, i) => `cluster-mail-${tag}-${i}@example.com`);
    for (const email of emails) await ok('POST', '/user/register', { email, password: PASSWORD }, '');
    await until('each mail delivered', 60_000, async () => emails.every((e) => smtp!.mails.some((m) => m.to.includes(e))), 500);

    await until('the sweep to move the silent device offline', 150_000, async () => {
      const r = await db.query(`SELECT api_heartbeat_state FROM device WHERE id = $1`, [silent.id]);
      return r.rows[0]?.api_heartbeat_state === 'offline';
    }, 1_000);
    // Another sweep slot or two pass with both nodes up; nothing may change twice.
    await new Promise((r) => setTimeout(r, 5_000));

    // Mail exactly once: the sink got one message per address.
    for (const email of emails) expect(smtp!.mails.filter((m) => m.to.includes(email)).length, email).toBe(1);
    // The sweep moved the device once per state: no transition recorded twice.
    const transitions = await db.query<{ old: string; new: string }>(`SELECT old, new FROM cluster_test_heartbeat WHERE device = $1 ORDER BY at`, [silent.id]);
    const moves = transitions.rows.map((t) => `${t.old}→${t.new}`);
    expect(moves.at(-1)).toMatch(/→offline$/);
    expect(new Set(moves).size, `transitions: ${moves.join(', ')}`).toBe(moves.length);
    // pg-boss: every scheduled job (heartbeat sweep, mail retry, log retention, registry and
    // file garbage, billing…) was enqueued once per cron slot across both nodes (the two
    // period-close jobs this test queued itself aside).
    const sweeps = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'heartbeat-sweep' AND state = 'completed'`);
    expect(sweeps.rows[0]!.n).toBeGreaterThan(0);
    const slots = await db.query<{ name: string; n: number }>(
      `SELECT name, count(*)::int AS n FROM pgboss.job WHERE name IN (SELECT name FROM pgboss.schedule) AND NOT id = ANY($1::uuid[])
        GROUP BY name, date_trunc('minute', created_on) HAVING count(*) > 1`,
      [closeJobs.rows.map((j) => j.id)],
    );
    expect(slots.rows, 'cron slots with more than one job').toEqual([]);
    // One invoice for the closed period, and its mail once.
    const invoices = await db.query<{ invoice_number: string }>(`SELECT invoice_number FROM invoice WHERE organization = $1 AND kind = 'period'`, [billed.orgId]);
    expect(invoices.rows).toHaveLength(1);
    const number = invoices.rows[0]!.invoice_number;
    await until('the invoice mail', 30_000, async () => smtp!.mails.some((m) => m.text.includes(number)), 500);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(smtp!.mails.filter((m) => m.text.includes(number) && m.to.some((t) => t.startsWith('cluster-billing-')))).toHaveLength(1);
    await db.query(`DROP TRIGGER cluster_test_heartbeat ON device`);
  });
});

async function dashboardSignIn(page: Page): Promise<void> {
  // The token as the login form stores it; the login page has its own e2e tests.
  await page.goto('/ping');
  await page.evaluate((token) => window.localStorage.setItem('balena-token', token), owner.token);
}

/** A reader of `GET /device/v2/{uuid}/logs?stream=1` that reconnects (with history) when cut. */
class LogReader {
  readonly seen = new Set<string>();
  readonly duplicates: string[] = [];
  connections = 0;
  connected = false;
  connectedAt = -1;
  private readonly times: number[] = [];
  private res: IncomingMessage | undefined;
  private stopped = false;

  constructor(private readonly uuid: string) {}

  start(): void {
    const perConnection = new Set<string>();
    // After a cut, the history too (the lines written while reconnecting); the first stream is live only.
    const count = this.connections === 0 ? 0 : 1000;
    const req = httpRequest(`${base}/device/v2/${this.uuid}/logs?stream=1&count=${count}`, { headers: { authorization: `Bearer ${owner.token}` } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        this.retry();
        return;
      }
      this.res = res;
      this.connections += 1;
      this.connected = true;
      this.connectedAt = Date.now();
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i).trim();
          buf = buf.slice(i + 1);
          if (!line) continue;
          const { message } = JSON.parse(line) as { message: string };
          if (!message.startsWith('cluster-line-')) continue;
          if (perConnection.has(message)) this.duplicates.push(message);
          perConnection.add(message);
          this.seen.add(message);
          this.times.push(Date.now());
        }
      });
      res.once('close', () => this.retry());
      res.once('error', () => undefined);
    });
    req.once('error', () => this.retry());
    req.end();
  }

  linesSince(t: number): number {
    return this.times.filter((x) => x > t).length;
  }

  private retry(): void {
    this.connected = false;
    if (this.stopped) return;
    setTimeout(() => this.start(), 500);
  }

  stop(): void {
    this.stopped = true;
    this.res?.destroy();
  }
}

/** A person typing into the web terminal (host shell → `cat`), reopening it when it is cut. */
class Typist {
  client: TerminalClient | undefined;
  sessions = 0;
  echoed = 0;
  lastEchoAt = 0;
  /** Keystrokes typed on a session that then gave no echo (in flight when it was cut). */
  readonly unechoed: string[] = [];
  live = false;

  constructor(private readonly uuid: string) {}

  async open(): Promise<void> {
    const client = await TerminalClient.open(base, owner.token, this.uuid, 'host', { cols: 200, rows: 24 });
    client.type('exec cat\r');
    await client.waitOutput(/exec cat\r?\n/, 0, 10_000);
    this.client = client;
    this.sessions += 1;
    this.live = true;
    void client.closed().then(() => {
      if (this.client === client) this.live = false;
    });
  }

  async typeUntil(stop: () => boolean): Promise<void> {
    for (let i = 0; !stop(); i++) {
      const client = this.client;
      if (!client || !this.live) {
        await this.open().catch(() => new Promise((r) => setTimeout(r, 500)));
        continue;
      }
      const key = `<k${i}>`;
      const from = client.output.length;
      client.type(key);
      const echoed = await client.waitOutput(new RegExp(key), from, 5_000).then(() => true, () => false);
      if (echoed) {
        this.echoed += 1;
        this.lastEchoAt = Date.now();
      }
      else {
        this.unechoed.push(key);
        this.live = false;
        await client.close().catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
  }
}
