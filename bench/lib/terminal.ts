// Terminal scenario of issue 15: (t) one keystroke's round trip through the web terminal —
// browser WebSocket → server → bus → cloud link → a real agent (`flotilla-agent run --engine
// podman`, the library form) → `docker exec` TTY in the service's container running `cat`, and
// the TTY's echo all the way back — p50/p99 over sequential keystrokes on loopback. Its
// baseline, measured in the same run on the same container: the same keystroke straight into an
// exec's hijacked stream on the engine's socket. Everything created carries
// `io.flotilla.test=<run id>` and is removed.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WsConnection, normalizeConfig, startAgent, type RunningAgent } from '@flotilla/agent';
import { TERMINAL_PATH } from '@flotilla/model';
import { TEST_BASE_IMAGE, TEST_LABEL, removeLabelled, startTestEngine } from '@flotilla/server/test-engine';
import { Api, firstRow } from './api.js';
import { fmt, row, type Row } from './evaluate.js';
import type { Outcome } from './outcome.js';
import { progress } from './phases.js';
import type { SeededUser } from './seed.js';
import { REPO_ROOT } from './servers.js';
import { sleep } from './stats.js';

const CLI = join(REPO_ROOT, 'packages/cli/bin/flotilla.mjs');
const KEEP_RUNNING = 'trap "exit 0" TERM; while true; do /bin/busybox sleep 1; done';
const CHARS = 'abcdefghijklmnopqrstuvwxyz';

export interface TerminalBenchConfig {
  keystrokes: number;
  warmup: number;
  timeoutMs: number;
}

export function loadTerminalConfig(quick: boolean): TerminalBenchConfig {
  return { keystrokes: Number(process.env.BENCH_TERMINAL_KEYSTROKES ?? (quick ? 200 : 1000)), warmup: 50, timeoutMs: 5 * 60_000 };
}

export interface TerminalFigures {
  keystrokes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The same keystrokes into an exec's stream on the engine socket, without Flotilla. */
  baselineP50Ms: number;
  baselineP99Ms: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const run = (file: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {}) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { maxBuffer: 16 * 1024 * 1024, ...opts }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });

async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Sends keystrokes one at a time and times each until its echo is back. `send` types one
 * character; `output` is everything received so far.
 */
async function typeAndTime(n: number, warmup: number, send: (ch: string) => void, received: () => string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < warmup + n; i++) {
    const ch = CHARS[i % CHARS.length]!;
    const from = received().length;
    const start = performance.now();
    send(ch);
    const deadline = Date.now() + 10_000;
    while (!received().slice(from).includes(ch)) {
      if (Date.now() > deadline) throw new Error(`keystroke ${i}: no echo within 10 s`);
      await new Promise((r) => setImmediate(r));
    }
    if (i >= warmup) times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

/** An exec with a TTY running `cat` in the container, its hijacked stream straight on the engine socket. */
async function engineExec(socketPath: string, containerId: string): Promise<Socket> {
  const create = await new Promise<string>((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path: `/containers/${containerId}/exec`, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ Cmd: ['/bin/busybox', 'cat'], AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: true }));
  });
  const id = (JSON.parse(create) as { Id: string }).Id;
  return new Promise((resolve, reject) => {
    const req = request({
      socketPath,
      method: 'POST',
      path: `/exec/${id}/start`,
      headers: { 'content-type': 'application/json', connection: 'Upgrade', upgrade: 'tcp' },
    });
    req.on('upgrade', (_res, socket) => resolve(socket));
    req.on('response', (res) => reject(new Error(`exec start answered ${res.statusCode}`)));
    req.on('error', reject);
    req.end(JSON.stringify({ Detach: false, Tty: true }));
  });
}

export interface TerminalSession {
  /** Sends keystrokes. */
  type(data: string): void;
  /** Everything the terminal printed so far. */
  output(): string;
  /** Set once the server or the device ends the session (or the socket closes). */
  ended(): string | undefined;
  close(): void;
}

/**
 * A web terminal session as the dashboard opens it: a WebSocket on /terminal/v1, authenticated
 * with a user's token, to a device's `target` (`service:<name>` or `host`); resolves once the
 * device's side is ready.
 */
export async function openTerminal(baseUrl: string, token: string, uuid: string, target: string): Promise<TerminalSession> {
  let output = '';
  let ended: string | undefined;
  let ready!: () => void;
  let failed!: (err: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  const end = (why: string) => {
    ended ??= why;
    failed(new Error(`terminal: ${why}`));
  };
  const ws: WsConnection = new WsConnection(`${baseUrl.replace(/^http/, 'ws')}${TERMINAL_PATH}`, {}, {
    onOpen: () => ws.send(JSON.stringify({ event: 'authentication', token, uuid, target, cols: 80, rows: 24 })),
    onMessage: (text) => {
      const f = JSON.parse(text) as { event: string; data?: string; reason?: string; message?: string };
      if (f.event === 'ready') ready();
      else if (f.event === 'data') output += f.data ?? '';
      else if (f.event === 'ssh disconnect' || f.event === 'unauthorized') end(`${f.event} ${f.reason ?? f.message ?? ''}`);
    },
    onClose: (code) => end(`closed (${code})`),
  });
  try {
    await opened;
  } catch (err) {
    ws.close(1000, 'failed to open');
    throw err;
  }
  return {
    type: (data) => ws.send(JSON.stringify({ event: 'data', data })),
    output: () => output,
    ended: () => ended,
    close: () => {
      ended ??= 'closed by the client';
      ws.close(1000, 'done');
    },
  };
}

export async function measureTerminal(baseUrl: string, user: SeededUser, config: TerminalBenchConfig): Promise<TerminalFigures> {
  const runId = `bench-terminal-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-terminal-'));
  progress('terminal (t): starting a Podman engine');
  const engine = await startTestEngine();
  let agent: RunningAgent | undefined;
  let link: TerminalSession | undefined;
  try {
    const api = new Api(baseUrl, user.token);
    const deviceType = firstRow(await api.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq 'raspberrypi4-64'`)}&$select=id`), 'device type');
    const fleet = await api.json<{ id: number; slug?: string }>('POST', '/v7/application', { app_name: 'bench-terminal', organization: user.organizationId, is_for__device_type: deviceType.id });
    const provisioningKey = await api.json<string>('POST', '/api-key/v2/', { actorType: 'application', actorTypeId: fleet.id, roles: ['provisioning-api-key'] });
    const project = join(dir, 'project');
    await mkdir(join(project, 'main'), { recursive: true });
    await writeFile(join(project, 'main', 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nLABEL ${TEST_LABEL}=${runId}\nCMD ["/bin/busybox", "sh", "-c", ${JSON.stringify(KEEP_RUNNING)}]\n`);
    await writeFile(join(project, 'docker-compose.yml'), `version: "2.1"\nservices:\n  main:\n    build: ./main\n    labels:\n      ${TEST_LABEL}: ${runId}\n`);
    progress('terminal (t): flotilla deploy, one agent (--engine podman)');
    const deployed = await run(process.execPath, [CLI, 'deploy', fleet.slug ?? `${user.username}/bench-terminal`.toLowerCase(), '--source', project], {
      cwd: dir,
      timeout: config.timeoutMs,
      env: { PATH: process.env.PATH ?? '', HOME: dir, FLOTILLA_CONFIG_DIR: join(dir, 'config'), FLOTILLA_API_URL: baseUrl, FLOTILLA_TOKEN: user.token, DOCKER_HOST: engine.dockerHost },
    });
    if (deployed.code !== 0) throw new Error(`flotilla deploy exited with ${deployed.code}: ${(deployed.stderr || deployed.stdout).slice(-1000)}`);
    const { config: agentConfig } = normalizeConfig({
      apiEndpoint: baseUrl,
      applicationId: fleet.id,
      deviceType: 'raspberrypi4-64',
      apiKey: provisioningKey,
      appUpdatePollInterval: 1_000,
      updateLockPath: join(dir, 'lock'),
    });
    agent = await startAgent({ config: agentConfig, engine: 'podman', engineEnv: { DOCKER_HOST: engine.dockerHost }, log: () => {} });
    const uuid = agentConfig.uuid;
    await until('the device running its release, online', config.timeoutMs, async () => {
      const d = await api.json<{ d: { is_online: boolean; is_running__release: { __id: number } | null }[] }>(
        'GET',
        `/v7/device?$filter=${encodeURIComponent(`uuid eq '${uuid}'`)}&$select=is_online,is_running__release`,
      );
      return d.d[0]?.is_online === true && d.d[0].is_running__release !== null;
    });

    progress(`terminal (t): ${config.keystrokes} keystrokes through the web terminal`);
    link = await openTerminal(baseUrl, user.token, uuid, 'service:main');
    const session = link;
    session.type('exec /bin/busybox cat\r');
    await until('cat running', 10_000, async () => session.output().includes('exec /bin/busybox cat\r\n'));
    const times = await typeAndTime(config.keystrokes, config.warmup, (ch) => session.type(ch), () => session.output());

    progress('terminal (t): baseline, the same keystrokes into an exec on the engine socket');
    const containers = await new Promise<{ Id: string; Labels: Record<string, string> }[]>((resolve, reject) => {
      const req = request({ socketPath: engine.socketPath, path: `/containers/json?filters=${encodeURIComponent(JSON.stringify({ label: [`io.flotilla.device-uuid=${uuid}`] }))}` }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Id: string; Labels: Record<string, string> }[]));
      });
      req.on('error', reject);
      req.end();
    });
    const container = containers[0];
    if (!container) throw new Error('the service container is not running');
    const socket = await engineExec(engine.socketPath, container.Id);
    let direct = '';
    socket.on('data', (c: Buffer) => (direct += c.toString('utf8')));
    const baseline = await typeAndTime(config.keystrokes, config.warmup, (ch) => socket.write(ch), () => direct);
    socket.destroy();

    return {
      keystrokes: times.length,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      maxMs: times.at(-1)!,
      baselineP50Ms: percentile(baseline, 50),
      baselineP99Ms: percentile(baseline, 99),
    };
  } finally {
    link?.close();
    await agent?.stop().catch(() => undefined);
    await removeLabelled(engine, runId);
    await engine.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export function evaluateTerminal(f: Outcome<TerminalFigures>): Row[] {
  return [
    row('t', 'terminal keystroke round trip (web terminal → cloud link → container TTY → back), p99', f, (r) => ({
      value: `p50 ${fmt(r.p50Ms, 1)} ms, p99 ${fmt(r.p99Ms, 1)} ms`,
      ratio: `engine-only p50 ${fmt(r.baselineP50Ms, 2)} ms, p99 ${fmt(r.baselineP99Ms, 2)} ms`,
      target: 'p99 < 50 ms',
      pass: r.p99Ms < 50,
      note: `${r.keystrokes} sequential keystrokes into \`cat\` in a real container (one agent, --engine podman, loopback); max ${fmt(r.maxMs, 1)} ms`,
    })),
  ];
}
