import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_LABELS, normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { TERMINAL_LIMITS } from '@flotilla/model';
import { buildApp } from '../src/app.js';
import { RedisBus } from '../src/infra/bus/redis.js';
import type { PoolDb } from '../src/infra/db/db.js';
import { Mailer } from '../src/infra/mail/mailer.js';
import { createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from './harness.js';
import { startRedis, type RedisServer } from './support/cloud-link.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { createFleet, giveFleetRole, hex, requester, row } from './support/fleet-helpers.js';
import { freePort } from './support/net.js';
import { AgentEvents } from './support/agent-events.js';
import { TerminalClient, TerminalRefused } from './support/terminal-client.js';
import { testEngine } from './support/test-engine.js';
import { apiWriter, waitFor as eventually } from './support/wait-for.js';

// Issue 15 item 2: the web terminal end to end. Two server processes on one Redis (A holds
// the device's cloud link, the browser talks to B), a real agent running the release's
// container on the run's Podman engine, a `ws` client playing the browser.

const engine = testEngine();
const docker = new Docker({ socketPath: engine.socketPath });
const testId = `terminal-${hex(4)}`;
const labels = { [TEST_LABEL]: testId };

let redis: RedisServer;
let db: PoolDb;
let drop: () => Promise<void>;
const buses: RedisBus[] = [];
const mailers: Mailer[] = [];
let a: FastifyInstance;
let b: FastifyInstance;
let urlA: string;
let urlB: string;
let dir: string;
let owner: SignedUpUser;
let observer: SignedUpUser;
let stranger: SignedUpUser;
let fleet: number;
let provKey: string;
let agent: RunningAgent;
let agentEvents: AgentEvents;
let uuid: string;
let hostAgent: RunningAgent;
let hostUuid: string;
const agents: RunningAgent[] = [];

async function node(port: number): Promise<FastifyInstance> {
  const bus = new RedisBus(redis.url);
  await bus.ready();
  buses.push(bus);
  const mailer = new Mailer({ db, publicUrl: `http://127.0.0.1:${port}` });
  mailers.push(mailer);
  const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, mailer, bus });
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

/** A release of one service `main` (a shell idling in busybox), pushed to A's embedded registry as `balena deploy` does. */
async function deployRelease(): Promise<number> {
  const api = apiWriter(() => requester(a), () => owner.token);
  const ctx = join(dir, 'ctx');
  mkdirSync(ctx, { recursive: true });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${testId}\n`);
  const tag = `localhost/flotilla-terminal-test/${testId}:1`;
  await podman(engine, ['build', '-q', '-t', tag, ctx]);
  const composition = {
    version: '2.1',
    services: { main: { command: ['/bin/busybox', 'sh', '-c', 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done'], labels } },
  };
  const release = (await api<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet, commit: hex(), status: 'running', source: 'cloud', composition })).id;
  const service = (await api<{ id: number }>('POST', '/v7/service', { application: fleet, service_name: 'main' })).id;
  const image = await api<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service, status: 'running' });
  const digestFile = join(dir, 'digest');
  await podman(engine, ['push', '-q', '--creds', `${owner.username}:${owner.token}`, '--digestfile', digestFile, tag, `${image.is_stored_at__image_location}:latest`]);
  await api('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release });
  await api('PATCH', `/v7/image(${image.id})`, { status: 'success', content_hash: readFileSync(digestFile, 'utf8').trim() });
  await api('PATCH', `/v7/release(${release})`, { status: 'success' });
  await podman(engine, ['rmi', tag]);
  await api('PATCH', `/v7/application(${fleet})`, { should_be_running__release: release, should_track_latest_release: false });
  return release;
}

async function runAgent(opts: { engine: 'podman' | 'none'; allowHostShell?: boolean }): Promise<{ agent: RunningAgent; events: AgentEvents }> {
  const cfg = normalizeConfig({
    apiEndpoint: urlA,
    applicationId: fleet,
    deviceType: 'raspberrypi3',
    apiKey: provKey,
    appUpdatePollInterval: 1_000,
    updateLockPath: join(dir, `lock-${hex(4)}`),
  }).config;
  const events = new AgentEvents(60_000);
  const started = await startAgent({
    config: cfg,
    engine: opts.engine,
    engineEnv: { DOCKER_HOST: engine.dockerHost },
    log: () => {},
    onEvent: events.push,
    reportDebounceMs: 50,
    stopTimeoutS: 2,
    statusIntervalMs: 500,
    ...(opts.allowHostShell ? { allowHostShell: true } : {}),
  });
  agents.push(started);
  return { agent: started, events };
}

const mainContainer = async (deviceUuid: string) =>
  (await docker.listContainers({ filters: { label: [`${CONTAINER_LABELS.deviceUuid}=${deviceUuid}`, `${CONTAINER_LABELS.serviceName}=main`] } }))[0];

/** The engine's execs in the device's main container that are still running. */
async function runningExecs(deviceUuid: string): Promise<string[]> {
  const c = await mainContainer(deviceUuid);
  if (!c) return [];
  const ids = (await docker.getContainer(c.Id).inspect()).ExecIDs ?? [];
  const running: string[] = [];
  for (const id of ids) {
    const info = await docker
      .getExec(id)
      .inspect()
      .catch(() => null);
    if (info?.Running) running.push(id);
  }
  return running;
}

/** Every client a test opened, closed after it (a failed test leaves no session behind). */
const clients: TerminalClient[] = [];
const open = async (...args: Parameters<typeof TerminalClient.open>) => {
  const c = await TerminalClient.open(...args);
  clients.push(c);
  return c;
};
const connect = async (...args: Parameters<typeof TerminalClient.connect>) => {
  const c = await TerminalClient.connect(...args);
  clients.push(c);
  return c;
};

/** `stty size` as the TTY reports it, asked again (for up to 5 s) until it reads 30 100. */
async function sizeEventually(term: TerminalClient, command: string): Promise<string> {
  let size = '';
  const end = Date.now() + 5_000;
  while (size !== '30 100' && Date.now() < end) {
    const from = term.output.length;
    term.type(`${command}\r`);
    size = (await term.waitOutput(/[\r\n](\d+ \d+)\r\n/, from))[1]!;
  }
  return size;
}

const auditRows = (deviceUuid: string) =>
  db.query<{ username: string; target: string; started_at: Date; ended_at: Date | null; end_reason: string | null; user: number | null }>(
    'SELECT s.username, s.target, s.started_at, s.ended_at, s.end_reason, s."user" FROM terminal_session s JOIN device d ON d.id = s.device WHERE d.uuid = $1 ORDER BY s.id',
    [deviceUuid],
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flotilla-terminal-'));
  redis = await startRedis();
  ({ db, drop } = await createTestDb());
  const [portA, portB] = [await freePort(), await freePort()];
  urlA = `http://127.0.0.1:${portA}`;
  urlB = `http://127.0.0.1:${portB}`;
  a = await node(portA);
  b = await node(portB);
  owner = await signUp(a);
  observer = await signUp(a);
  stranger = await signUp(a);
  fleet = await createFleet(a, db, owner, 'TerminalFleet');
  await giveFleetRole(db, owner.orgId, fleet, observer, 'observer');
  provKey = (await requester(a)(owner.token, 'POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet, roles: ['provisioning-api-key'] })).json();
  const release = await deployRelease();
  ({ agent, events: agentEvents } = await runAgent({ engine: 'podman' }));
  uuid = agent.config().uuid;
  await eventually(async () => (await row<{ r: number | null }>(db, 'SELECT is_running__release AS r FROM device WHERE uuid = $1', [uuid]))?.r === release, 'the release running');
  await eventually(async () => (await row<{ o: boolean }>(db, 'SELECT is_online AS o FROM device WHERE uuid = $1', [uuid]))?.o, 'the device online');
  const host = await runAgent({ engine: 'none', allowHostShell: true });
  hostAgent = host.agent;
  hostUuid = hostAgent.config().uuid;
  await eventually(async () => (await row<{ o: boolean }>(db, 'SELECT is_online AS o FROM device WHERE uuid = $1', [hostUuid]))?.o, 'the host device online');
}, 180_000);

afterAll(async () => {
  await Promise.all(agents.splice(0).map((x) => x.stop()));
  await removeLabelled(engine, testId).catch(() => undefined);
  await a?.close();
  await b?.close();
  await Promise.all(buses.map((bus) => bus.close()));
  for (const m of mailers) m.close();
  await drop?.();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('web terminal: browser on B, device linked to A', () => {
  it("runs a real shell in the service's container: echo $((6*7)) answers 42, in order connecting → spawning → connect → ready", async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main', { cols: 80, rows: 24 });
    expect(term.frames.map((f) => f.event).filter((e) => e !== 'data')).toEqual(['authenticated', 'ssh connecting', 'ssh spawning', 'ssh connect', 'ready']);
    const from = term.output.length;
    term.type('echo $((6*7))\r');
    await term.waitOutput(/[\r\n]42\r\n/, from);
    await term.close();
  }, 60_000);

  it('resize reaches the TTY (stty size 30 100); 0×0 and 100000×100000 answer error and the session goes on', async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    term.send({ event: 'resize', cols: 0, rows: 0 });
    term.send({ event: 'resize', cols: 100_000, rows: 100_000 });
    await term.until((c) => c.frames.filter((f) => f.event === 'error').length === 2);
    expect(term.frames.filter((f) => f.event === 'error').map((f) => (f as { message: string }).message)).toEqual([
      'A terminal is 1 to 1000 columns and 1 to 1000 rows',
      'A terminal is 1 to 1000 columns and 1 to 1000 rows',
    ]);
    term.send({ event: 'resize', cols: 100, rows: 30 });
    // The resize travels B → bus → A → link → agent → engine; Podman applies it to the TTY just
    // after answering the resize call, so the size is read until it shows (a user types later).
    expect(await sizeEventually(term, '/bin/busybox stty size')).toBe('30 100');
    expect(term.has('ssh disconnect')).toBe(false);
    await term.close();

    // A resize sent while the device is still opening the TTY reaches it once ready.
    const early = await connect(urlB);
    early.send({ event: 'authentication', token: owner.token, uuid, target: 'service:main', cols: 80, rows: 24 });
    early.send({ event: 'resize', cols: 100, rows: 30 });
    await early.until((c) => c.has('ready'));
    expect(await sizeEventually(early, '/bin/busybox stty size')).toBe('30 100');
  }, 60_000);

  it('answers malformed JSON, unknown events and data before ready with error; an oversized frame closes with 1009', async () => {
    const term = await connect(urlB);
    term.sendRaw('{not json');
    term.send({ event: 'data', data: 'too early' });
    term.send({ event: 'launch' });
    await term.until((c) => c.frames.length === 3);
    expect(term.frames).toEqual([
      { event: 'error', message: 'Malformed JSON' },
      { event: 'error', message: 'The terminal is not ready' },
      { event: 'error', message: 'Unknown event' },
    ]);
    term.send({ event: 'data', data: 'x'.repeat(TERMINAL_LIMITS.maxFrameBytes + 1) });
    expect(await term.closed()).toBe(1009);
  }, 30_000);

  it('ignores frames after the session ended (the shell exited); the server goes on serving', async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    term.type('exit\r');
    await term.until((c) => c.has('ssh disconnect'));
    const seen = term.frames.length;
    if (term.ws.readyState === term.ws.OPEN) {
      term.type('echo late\r');
      term.send({ event: 'resize', cols: 0, rows: 0 });
    }
    expect(await term.closed()).toBe(1000);
    expect(term.frames.slice(seen)).toEqual([]);
    expect(term.frame('ssh disconnect')?.reason).toBe('the shell exited');
    const again = await open(urlB, owner.token, uuid, 'service:main');
    await again.close();
  }, 60_000);

  it("closing the browser ends the container's exec (no shell left running) and the audit row records start, end and who", async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    const from = term.output.length;
    term.type('echo open\r');
    await term.waitOutput(/\r\nopen\r\n/, from);
    expect((await runningExecs(uuid)).length).toBeGreaterThan(0);
    await term.close();
    await eventually(async () => (await runningExecs(uuid)).length === 0, 'no exec running in the container', 20_000);
    // A browser that leaves while the device is opening the TTY leaves no shell either.
    const hasty = await connect(urlB);
    hasty.send({ event: 'authentication', token: owner.token, uuid, target: 'service:main' });
    await hasty.until((c) => c.has('ssh connecting'));
    await hasty.close();
    await eventually(async () => (await auditRows(uuid)).rows.every((r) => r.ended_at !== null), 'the hasty session audited as ended', 10_000);
    await eventually(async () => (await runningExecs(uuid)).length === 0, 'no exec running after a hasty close', 20_000);
    const rows = await eventually(async () => {
      const r = (await auditRows(uuid)).rows;
      return r.length > 0 && r.every((x) => x.ended_at !== null) && r;
    }, 'every audit row closed', 10_000);
    const last = rows.at(-1)!;
    expect(last).toMatchObject({ username: owner.username, user: owner.userId, target: 'service:main', end_reason: 'the browser closed the terminal' });
    expect(last.ended_at!.getTime()).toBeGreaterThanOrEqual(last.started_at.getTime());
  }, 60_000);

  it('a foreign Origin is refused at the upgrade (403); the dashboard origin and a client without Origin are accepted', async () => {
    await expect(TerminalClient.connect(urlB, { origin: 'http://evil.example' })).rejects.toEqual(new TerminalRefused(403));
    await expect(TerminalClient.connect(urlB, { origin: 'null' })).rejects.toEqual(new TerminalRefused(403));
    const same = await TerminalClient.connect(urlB, { origin: urlB });
    await same.close();
    const none = await connect(urlB);
    await none.close();
  });

  it('refuses a bad token, an observer (no resin.device.ssh), a user of another organization, and the host for a user without ssh-host', async () => {
    const refused = async (token: string, target: 'host' | 'service:main', device = uuid) => {
      const term = await connect(urlB);
      term.send({ event: 'authentication', token, uuid: device, target });
      await term.until((c) => c.closeCode !== null);
      expect(term.has('authenticated')).toBe(false);
      return term.frame('unauthorized')?.message;
    };
    expect(await refused('not-a-token', 'service:main')).toBe('Invalid or expired token');
    expect(await refused(`${owner.token.slice(0, -4)}AAAA`, 'service:main')).toBe('Invalid or expired token');
    expect(await refused(observer.token, 'service:main')).toBe('You need the right resin.device.ssh to open a terminal in the services of this device');
    expect(await refused(observer.token, 'host', hostUuid)).toBe('You need the right resin.device.ssh-host to open a terminal on the host of this device');
    expect(await refused(stranger.token, 'service:main')).toBe('No such device');
    expect(await refused(stranger.token, 'host', hostUuid)).toBe('No such device');
    // A well-formed request for a device that does not exist is the same answer.
    expect(await refused(owner.token, 'service:main', hex(16))).toBe('No such device');
  }, 30_000);

  it('a service that does not exist ends in ssh disconnect with the reason', async () => {
    const term = await connect(urlB);
    term.send({ event: 'authentication', token: owner.token, uuid, target: 'service:nope' });
    await term.until((c) => c.has('ssh disconnect'));
    expect(term.frame('ssh disconnect')?.reason).toBe('this device runs no service named nope');
    expect(await term.closed()).toBe(1000);
  }, 30_000);

  it('the host shell is refused on an agent started without --allow-host-shell', async () => {
    const term = await connect(urlB);
    term.send({ event: 'authentication', token: owner.token, uuid, target: 'host' });
    await term.until((c) => c.has('ssh disconnect'));
    expect(term.frames.map((f) => f.event)).toEqual(['authenticated', 'ssh connecting', 'ssh spawning', 'ssh disconnect']);
    expect(term.frame('ssh disconnect')?.reason).toBe('the host shell is disabled on this device (start flotilla-agent with --allow-host-shell)');
  }, 30_000);

  it('with --allow-host-shell the host shell is a real pseudo-terminal: 42, and stty size follows resize', async () => {
    const term = await open(urlB, owner.token, hostUuid, 'host', { cols: 80, rows: 24 });
    let from = term.output.length;
    term.type('echo $((6*7))\r');
    await term.waitOutput(/[\r\n]42\r\n/, from);
    term.send({ event: 'resize', cols: 100, rows: 30 });
    from = term.output.length;
    term.type('stty size\r');
    await term.waitOutput(/[\r\n]30 100\r\n/, from);
    await term.close();
    const rows = await eventually(async () => {
      const r = (await auditRows(hostUuid)).rows;
      return r.length === 1 && r[0]!.ended_at !== null && r;
    }, 'the host session audited');
    expect(rows[0]).toMatchObject({ target: 'host', username: owner.username });
  }, 60_000);

  it('flow control: a flood of output (1 MB of yes, four times the unacknowledged window) all arrives and the session goes on', async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    const from = term.output.length;
    term.type('/bin/busybox yes | /bin/busybox head -c 1000000; echo done-$((6*7))\r');
    await term.waitOutput(/done-42\r\n/, from, 60_000);
    // Every "y\n" of the flood, as the TTY writes it ("y\r\n").
    expect((term.output.slice(from).match(/y\r\n/g) ?? []).length).toBe(500_000);
    const next = term.output.length;
    term.type('echo $((6*7))\r');
    await term.waitOutput(/[\r\n]42\r\n/, next);
    await term.close();
  }, 90_000);

  it('a browser on A (same process as the link) works too', async () => {
    const term = await open(urlA, owner.token, uuid, 'service:main');
    const from = term.output.length;
    term.type('echo $((6*7))\r');
    await term.waitOutput(/[\r\n]42\r\n/, from);
    await term.close();
  }, 60_000);

  it('the container stopping ends the session with ssh disconnect "the container stopped"', async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    const container = (await mainContainer(uuid))!;
    await docker.getContainer(container.Id).stop({ t: 1 });
    await term.until((c) => c.has('ssh disconnect'));
    expect(term.frame('ssh disconnect')?.reason).toBe('the container stopped');
    expect(await term.closed()).toBe(1000);
    await docker
      .getContainer(container.Id)
      .start()
      .catch(() => undefined); // the agent may have started it again already
  }, 60_000);

  it('the device going offline ends the session with ssh disconnect, and a new session says the device is offline', async () => {
    const term = await open(urlB, owner.token, uuid, 'service:main');
    const linkDown = agentEvents.next('link', (e) => !e.up);
    await agent.stop();
    await linkDown;
    await term.until((c) => c.has('ssh disconnect'));
    expect(term.frame('ssh disconnect')?.reason).toBe('the device disconnected');
    expect(await term.closed()).toBe(1000);
    await eventually(async () => !(await row<{ o: boolean }>(db, 'SELECT is_online AS o FROM device WHERE uuid = $1', [uuid]))?.o, 'the device offline');
    const later = await connect(urlB);
    later.send({ event: 'authentication', token: owner.token, uuid, target: 'service:main' });
    await later.until((c) => c.has('ssh disconnect'));
    expect(later.frame('ssh disconnect')?.reason).toBe('device is offline');
    await eventually(async () => (await runningExecs(uuid)).length === 0, 'no exec left running', 20_000);
  }, 60_000);
});
