// The soak's own load (issue 21): dashboard sessions (balena-sdk clients doing what the
// dashboard does, and one real Chromium page on the dashboard) and periodic registry pulls.
// The devices are the simulator's and the real agents' (bench/lib/scale.ts, rollout.ts).
import { createHash } from 'node:crypto';
import type { Browser } from '@playwright/test';
import { launchChromium } from './browser.js';
import { getSdk } from 'balena-sdk';
import { progress } from './phases.js';
import { tableRequests } from './scale.js';
import type { SeededUser } from './seed.js';
import { sleep } from './stats.js';
import { openTerminal } from './terminal.js';

/** Every failure the soak's clients saw, counted and a few kept as samples. */
export class Errors {
  count = 0;
  readonly samples: string[] = [];
  readonly byKind: Record<string, number> = {};

  add(kind: string, err: unknown): void {
    this.count++;
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
    if (this.samples.length < 20) this.samples.push(`${new Date().toISOString()} ${kind}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 400));
  }
}

export interface DashboardCounters {
  sessions: number;
  /** Rounds of fleet list, device table, device detail (one per session every ~5 s). */
  rounds: number;
  requests: number;
  variableEdits: number;
  logSubscriptions: number;
  /** Lines the sessions' live log subscriptions received. */
  logLines: number;
  terminalsOpened: number;
  /** Opened, a command typed, its output seen, closed. */
  terminalsServed: number;
  browserPages: number;
}

export interface DashboardTargets {
  baseUrl: string;
  user: SeededUser;
  /** The simulated fleet: its device table, devices to open, watch and edit variables of. */
  simFleetId: number;
  simDevices: { id: number; uuid: string }[];
  /** Real agents' devices (running a release with a `main` service): terminal targets. */
  agentUuids: string[];
  sessions: number;
  /** One terminal session opened (by a random session) every this many ms. */
  terminalEveryMs: number;
  /** Run one of the sessions as a real Chromium page on the dashboard. */
  browser: string | undefined;
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/**
 * `sessions` signed-in dashboard sessions until `stop()`: each one a balena-sdk client that,
 * every ~5 s (jittered), reads the fleet list, the simulated fleet's device table (page, $count,
 * per-status counts, as the page sends them) and one device's detail, and every third round
 * edits a device variable; each keeps one live log subscription open on a simulated device.
 * Every `terminalEveryMs` one of them opens a web terminal to a real agent's `main` service,
 * runs `echo`, waits for its output and closes it. With `browser`, one more session is Debian's
 * Chromium signed in on the dashboard, moving between the device table and a device's page.
 */
export function startDashboardSessions(t: DashboardTargets, errors: Errors): { counters: DashboardCounters; stop(): Promise<void> } {
  const counters: DashboardCounters = { sessions: t.sessions + (t.browser ? 1 : 0), rounds: 0, requests: 0, variableEdits: 0, logSubscriptions: 0, logLines: 0, terminalsOpened: 0, terminalsServed: 0, browserPages: 0 };
  let stopped = false;
  let wakeAll: () => void = () => undefined;
  const stopSignal = new Promise<void>((resolve) => (wakeAll = resolve));
  const unsubscribes: (() => void)[] = [];
  const req = tableRequests(t.simFleetId);

  // Sign-ins one after the other: the login throttle counts an attempt as a failure until its
  // password is checked (at most 10 in flight per account and address), so 20 sessions of one
  // user signing in at the same instant got 429s (first full soak) — people do not.
  let signIns: Promise<unknown> = Promise.resolve();
  const session = async (index: number) => {
    const sdk = getSdk({ apiUrl: t.baseUrl, dataDirectory: false });
    const signIn = signIns.then(() => sdk.auth.login({ email: t.user.email, password: t.user.password }));
    signIns = signIn.catch(() => undefined);
    await signIn;
    const send = async (url: string) => {
      counters.requests++;
      await sdk.request.send({ method: 'GET', url, baseUrl: t.baseUrl });
    };
    // One live log subscription for the session's life (the device page's log panel).
    const watched = t.simDevices[index % t.simDevices.length]!;
    const logs = await sdk.logs.subscribe(watched.uuid, { count: 0 });
    counters.logSubscriptions++;
    logs.on('line', () => counters.logLines++);
    logs.on('error', (err: unknown) => {
      if (!stopped) errors.add('log subscription', err);
    });
    unsubscribes.push(() => logs.unsubscribe());
    await sleep(Math.random() * 5_000);
    for (let round = 0; !stopped; round++) {
      try {
        counters.requests++;
        await sdk.pine.get({ resource: 'application', options: { $expand: 'organization', $top: 50, $orderby: { app_name: 'asc' } } });
        await send(req.page);
        await send(req.count);
        await Promise.all(req.statusCounts.map((p) => send(p)));
        const device = pick(t.simDevices);
        counters.requests++;
        await sdk.models.device.get(device.uuid, {
          $select: ['id', 'uuid', 'device_name', 'overall_status', 'is_online', 'last_connectivity_event', 'ip_address', 'os_version'],
          $expand: { is_of__device_type: { $select: ['slug', 'name'] }, is_running__release: { $select: ['id', 'commit'] }, belongs_to__application: { $select: ['id', 'app_name'] } },
        });
        if (round % 3 === 2) {
          counters.requests++;
          await sdk.models.device.envVar.set(device.uuid, 'SOAK_EDITED', `session-${index}-round-${round}`);
          counters.variableEdits++;
        }
        counters.rounds++;
      } catch (err) {
        if (!stopped) errors.add('dashboard session', err);
      }
      await Promise.race([sleep(4_000 + Math.random() * 2_000), stopSignal]);
    }
  };

  const terminals = async () => {
    for (let n = 0; !stopped; n++) {
      await Promise.race([sleep(t.terminalEveryMs), stopSignal]);
      if (stopped || t.agentUuids.length === 0) break;
      const uuid = pick(t.agentUuids);
      try {
        const term = await openTerminal(t.baseUrl, t.user.token, uuid, 'service:main');
        counters.terminalsOpened++;
        try {
          const marker = `soak-${n}-${Math.floor(Math.random() * 1e6)}`;
          term.type(`echo ${marker}-ok\r`);
          const deadline = Date.now() + 15_000;
          // The typed line echoes `echo <marker>-ok`; the command prints `<marker>-ok` on a line of its own.
          while (!new RegExp(`(^|\\n)${marker}-ok\\r?\\n`).test(term.output())) {
            const ended = term.ended();
            if (ended) throw new Error(`the session ended: ${ended}`);
            if (Date.now() > deadline) throw new Error(`no output within 15 s: ${JSON.stringify(term.output().slice(-200))}`);
            await sleep(50);
          }
          counters.terminalsServed++;
        } finally {
          term.close();
        }
      } catch (err) {
        errors.add(`terminal to ${uuid}`, err);
      }
    }
  };

  let browser: Browser | undefined;
  const browserSession = async (executablePath: string) => {
    browser = await launchChromium(executablePath);
    const context = await browser.newContext({ baseURL: t.baseUrl, viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    page.on('pageerror', (err) => errors.add('browser page error', err));
    page.on('response', (res) => {
      if (res.status() >= 500) errors.add('browser response', `${res.status()} ${res.request().method()} ${res.url()}`);
    });
    page.on('requestfailed', (r) => {
      const failure = r.failure()?.errorText ?? '';
      // A navigation cancels the previous page's requests (its log stream among them): not a failure.
      if (!stopped && failure !== 'net::ERR_ABORTED') errors.add('browser request', `${failure} ${r.method()} ${r.url()}`);
    });
    await page.goto('/login');
    await page.getByLabel('Email or username').fill(t.user.email);
    await page.getByLabel('Password', { exact: true }).fill(t.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/fleets$/, { timeout: 60_000 });
    while (!stopped) {
      try {
        await page.goto(`/fleets/${t.simFleetId}/devices`);
        await page.getByRole('table').first().waitFor({ timeout: 30_000 });
        counters.browserPages++;
        await Promise.race([sleep(10_000), stopSignal]);
        if (stopped) break;
        await page.goto(`/devices/${pick(t.simDevices).uuid}`);
        await page.waitForLoadState('load');
        counters.browserPages++;
      } catch (err) {
        if (!stopped) errors.add('browser', err);
      }
      await Promise.race([sleep(10_000), stopSignal]);
    }
  };

  const running = [
    ...Array.from({ length: t.sessions }, (_, i) => session(i).catch((err: unknown) => errors.add('dashboard session start', err))),
    terminals(),
    ...(t.browser ? [browserSession(t.browser).catch((err: unknown) => errors.add('browser start', err))] : []),
  ];
  progress(`soak: ${t.sessions} balena-sdk dashboard sessions${t.browser ? ' and one Chromium page' : ''} started`);
  return {
    counters,
    async stop() {
      stopped = true;
      wakeAll();
      await Promise.all(running);
      for (const u of unsubscribes) u();
      await browser?.close().catch(() => undefined);
    },
  };
}

export interface PullCounters {
  pulls: number;
  bytes: number;
  /** Sum over bursts of the burst's duration: pulls / pullSeconds = pulls per second while pulling. */
  pullSeconds: number;
  bursts: number;
}

/**
 * A device's pull of each of `images` (registry locations `host/repo`, manifest digests) from
 * the embedded registry: a token for the repository (user credentials, as `docker login` to the
 * API's registry), the manifest by digest, then the config and every layer, each blob's SHA-256
 * checked against its digest. Every `everyMs`, a burst of `concurrency` such pulls at once.
 */
export function startRegistryPulls(
  o: { baseUrl: string; user: SeededUser; images: { location: string; digest: string }[]; everyMs: number; concurrency: number },
  errors: Errors,
): { counters: PullCounters; stop(): Promise<void> } {
  const counters: PullCounters = { pulls: 0, bytes: 0, pullSeconds: 0, bursts: 0 };
  let stopped = false;
  let wake: () => void = () => undefined;
  const basic = `Basic ${Buffer.from(`${o.user.username}:${o.user.token}`).toString('base64')}`;
  const get = async (url: string, headers: Record<string, string>): Promise<Buffer> => {
    const res = await fetch(new URL(url, o.baseUrl), { headers, signal: AbortSignal.timeout(60_000) });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.toString('utf8').slice(0, 200)}`);
    return body;
  };
  const pullOne = async (image: { location: string; digest: string }) => {
    const host = image.location.slice(0, image.location.indexOf('/'));
    const repo = image.location.slice(image.location.indexOf('/') + 1);
    const { token } = JSON.parse((await get(`/auth/v1/token?${new URLSearchParams({ service: host, scope: `repository:${repo}:pull` })}`, { authorization: basic })).toString('utf8')) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const accept = 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json';
    const manifest = JSON.parse((await get(`/v2/${repo}/manifests/${image.digest}`, { ...auth, accept })).toString('utf8')) as { config?: { digest: string }; layers?: { digest: string }[] };
    const blobs = [manifest.config?.digest, ...(manifest.layers ?? []).map((l) => l.digest)].filter((d): d is string => d !== undefined);
    if (blobs.length < 2) throw new Error(`manifest of ${repo} names ${blobs.length} blobs`);
    for (const digest of blobs) {
      const body = await get(`/v2/${repo}/blobs/${digest}`, auth);
      const got = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      if (got !== digest) throw new Error(`blob ${digest} of ${repo} hashed to ${got}`);
      counters.bytes += body.length;
    }
  };
  const loop = async () => {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, o.everyMs);
      });
      if (stopped) break;
      const started = performance.now();
      const results = await Promise.allSettled(Array.from({ length: o.concurrency }, (_, i) => pullOne(o.images[i % o.images.length]!)));
      counters.pullSeconds += (performance.now() - started) / 1000;
      counters.bursts++;
      for (const r of results) {
        if (r.status === 'fulfilled') counters.pulls++;
        else errors.add('registry pull', r.reason);
      }
    }
  };
  const running = loop();
  return {
    counters,
    async stop() {
      stopped = true;
      wake();
      await running;
    },
  };
}
