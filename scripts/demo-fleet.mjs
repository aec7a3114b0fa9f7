// `FLOTILLA_DEMO_DEVICES=N npm start`: once the server answers, creates (or reuses) a demo
// user, a fleet 'demo-fleet' and a provisioning key, then runs `flotilla-agent simulate`
// with N virtual devices against it. The demo user's credentials live in
// <FLOTILLA_DATA_DIR>/demo-user.json; the simulation uses a fixed seed, so a restart
// reuses the same devices (the agent's key exchange) instead of adding N more.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const DEMO_FLEET = 'demo-fleet';
const DEMO_DEVICE_TYPE = 'raspberrypi4-64';

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
    const creds = { email: 'demo@flotilla.local', password: randomBytes(12).toString('base64url') };
    await call(api, 'POST', '/user/register', null, creds);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
    console.log(`[demo] created the demo user ${creds.email}; its password is in ${file}`);
  }
  const { email, password } = JSON.parse(readFileSync(file, 'utf8'));
  return call(api, 'POST', '/login_', null, { username: email, password });
}

/** Starts the simulator; returns the child process (the caller stops it with the server). */
export async function startDemo({ root, count }) {
  const port = process.env.PORT ?? '8080';
  const api = `http://127.0.0.1:${port}`;
  const dataDir = resolve(root, process.env.FLOTILLA_DATA_DIR ?? './data');
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
  const key = await call(api, 'POST', '/api-key/v2/', token, {
    actorType: 'application',
    actorTypeId: fleet,
    roles: ['provisioning-api-key'],
    name: `demo simulator ${new Date().toISOString()}`,
    expiryDate: null,
  });
  console.log(`[demo] simulating ${count} device(s) in ${DEMO_FLEET}; sign in as demo@flotilla.local to watch them`);
  return spawn(
    process.execPath,
    [join(root, 'packages/agent/bin/flotilla-agent.mjs'), 'simulate', '--api', api, '--provisioning-key', key, '--count', String(count), '--fleet', String(fleet), '--device-type', DEMO_DEVICE_TYPE, '--locations', '--seed', '1', '--poll-interval', '10', '--quiet'],
    { stdio: 'inherit', cwd: root },
  );
}
