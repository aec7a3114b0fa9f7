// `FLOTILLA_DEMO_DEVICES=N npm start`: once the server answers, creates (or reuses) a demo
// user, a fleet 'demo-fleet' and a provisioning key, then runs `flotilla-agent simulate`
// with N virtual devices against it. The demo user's credentials live in
// <FLOTILLA_DATA_DIR>/demo-user.json; the simulation uses a fixed seed, so a restart
// reuses the same devices (the agent's key exchange) instead of adding N more.
// The demo fleet gets a first release at once and a second one a minute later
// (FLOTILLA_DEMO_RELEASE_DELAY_MS), so the devices' update to it is visible.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DEMO_FLEET = 'demo-fleet';
const DEMO_DEVICE_TYPE = 'raspberrypi4-64';
/** Delay before the demo fleet's second release (a rollout to watch). */
export const DEMO_RELEASE_DELAY_MS = 60_000;
const DEMO_SERVICES = ['frontend', 'api'];

async function call(api, method, path, token, body) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function waitForServer(api, timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${api}/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer at ${api} within ${timeoutMs / 1000} s`);
}

async function demoToken(api, dataDir) {
  const file = join(dataDir, 'demo-user.json');
  if (!existsSync(file)) {
    const creds = { email: 'demo@flotilla.local', password: randomBytes(12).toString('hex') }; // letters and digits only (issue 22)
    await call(api, 'POST', '/user/register', null, creds);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
    console.log(`[demo] created the demo user ${creds.email}; its password is in ${file}`);
  }
  const { email, password } = JSON.parse(readFileSync(file, 'utf8'));
  return call(api, 'POST', '/login_', null, { username: email, password });
}

/**
 * Deploys one demo release through /v7 in the order `balena deploy` uses (release running →
 * services → images → release images → images success → release success); the fleet tracks
 * its latest release, so the devices update to it.
 */
async function deployDemoRelease(api, token, fleet, n) {
  const now = Date.now();
  const composition = {
    version: '2.1',
    services: Object.fromEntries(DEMO_SERVICES.map((name) => [name, { build: `./${name}`, restart: 'always' }])),
  };
  const release = await call(api, 'POST', '/v7/release', token, {
    belongs_to__application: fleet,
    commit: randomBytes(20).toString('hex'),
    composition,
    status: 'running',
    source: 'local',
    start_timestamp: new Date(now - 60_000).toISOString(),
    is_final: true,
    semver: `1.${n - 1}.0`,
  });
  for (const name of DEMO_SERVICES) {
    const filter = encodeURIComponent(`application eq ${fleet} and service_name eq '${name}'`);
    const existing = (await call(api, 'GET', `/v7/service?$select=id&$filter=${filter}`, token)).d[0]?.id;
    const service = existing ?? (await call(api, 'POST', '/v7/service', token, { application: fleet, service_name: name })).id;
    const image = await call(api, 'POST', '/v7/image', token, {
      is_a_build_of__service: service,
      status: 'running',
      start_timestamp: new Date(now - 60_000).toISOString(),
      project_type: 'Dockerfile',
    });
    await call(api, 'POST', '/v7/image__is_part_of__release', token, { image: image.id, is_part_of__release: release.id });
    await call(api, 'PATCH', `/v7/image(${image.id})`, token, {
      status: 'success',
      end_timestamp: new Date(now - 10_000).toISOString(),
      push_timestamp: new Date(now - 5_000).toISOString(),
      image_size: 50_000_000 + n * 1_000_000,
      content_hash: `sha256:${randomBytes(32).toString('hex')}`,
    });
  }
  await call(api, 'PATCH', `/v7/release(${release.id})`, token, { status: 'success', end_timestamp: new Date().toISOString() });
  console.log(`[demo] released ${DEMO_FLEET} v1.${n - 1}.0 (release ${release.id})`);
  return release.id;
}

/**
 * The demo user, fleet and releases: a first release now when the fleet has none, and a
 * second one `releaseDelayMs` later when it has fewer than two. Resolves once the fleet and
 * its first release exist; `secondRelease` settles when the second is made (or not needed).
 */
export async function seedDemoFleet({ api, dataDir, releaseDelayMs = DEMO_RELEASE_DELAY_MS }) {
  await waitForServer(api);
  const token = await demoToken(api, dataDir);
  const me = await call(api, 'GET', '/actor/v1/whoami', token);
  let fleet = (await call(api, 'GET', `/v7/application?$select=id&$filter=app_name eq '${DEMO_FLEET}'`, token)).d[0]?.id;
  if (fleet === undefined) {
    const org = (await call(api, 'GET', `/v7/organization?$select=id&$filter=handle eq '${me.username}'`, token)).d[0].id;
    const type = (await call(api, 'GET', `/v7/device_type?$select=id&$filter=slug eq '${DEMO_DEVICE_TYPE}'`, token)).d[0].id;
    fleet = (await call(api, 'POST', '/v7/application', token, { app_name: DEMO_FLEET, organization: org, is_for__device_type: type })).id;
    console.log(`[demo] created the fleet ${DEMO_FLEET} (${fleet})`);
  }
  const countReleases = async () => (await call(api, 'GET', `/v7/release?$select=id&$filter=belongs_to__application eq ${fleet}`, token)).d.length;
  let releases = await countReleases();
  if (releases === 0) releases = (await deployDemoRelease(api, token, fleet, 1), 1);
  let timer = null;
  const secondRelease =
    releases >= 2
      ? Promise.resolve(null)
      : new Promise((resolve, reject) => {
          timer = setTimeout(() => {
            timer = null;
            deployDemoRelease(api, token, fleet, 2).then(resolve, (err) => {
              console.error(`[demo] second release not made: ${err.message}`);
              reject(err);
            });
          }, releaseDelayMs);
        });
  secondRelease.catch(() => undefined);
  return {
    token,
    fleet,
    secondRelease,
    /** Drops a second release that is still waiting (the server is stopping). */
    cancel: () => {
      if (timer) clearTimeout(timer);
    },
  };
}

/**
 * Seeds the demo fleet and starts the simulator; returns the simulator's child process and
 * `cancel` (the caller stops both with the server).
 */
export async function startDemo({ root, count, api, dataDir, releaseDelayMs, stdio = 'inherit' }) {
  api ??= `http://127.0.0.1:${process.env.PORT ?? '8080'}`;
  dataDir ??= resolve(root, process.env.FLOTILLA_DATA_DIR ?? './data');
  // Empty counts as unset, as in the server's configuration.
  const delayEnv = process.env.FLOTILLA_DEMO_RELEASE_DELAY_MS ? Number(process.env.FLOTILLA_DEMO_RELEASE_DELAY_MS) : NaN;
  releaseDelayMs ??= Number.isInteger(delayEnv) && delayEnv >= 0 ? delayEnv : DEMO_RELEASE_DELAY_MS;
  const seeded = await seedDemoFleet({ api, dataDir, releaseDelayMs });
  const { token, fleet } = seeded;
  const key = await call(api, 'POST', '/api-key/v2/', token, {
    actorType: 'application',
    actorTypeId: fleet,
    roles: ['provisioning-api-key'],
    name: `demo simulator ${new Date().toISOString()}`,
    expiryDate: null,
  });
  console.log(`[demo] simulating ${count} device(s) in ${DEMO_FLEET}; sign in as demo@flotilla.local to watch them`);
  const child = spawn(
    process.execPath,
    [join(root, 'packages/agent/bin/flotilla-agent.mjs'), 'simulate', '--api', api, `--provisioning-key=${key}`, '--count', String(count), '--fleet', String(fleet), '--device-type', DEMO_DEVICE_TYPE, '--locations', '--seed', '1', '--poll-interval', '10', '--quiet'],
    { stdio, cwd: root },
  );
  return { child, seeded };
}
