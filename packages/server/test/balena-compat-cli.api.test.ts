import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, sdkClient, type SignedUpUser, type TestApp } from './harness.js';

// Issue 12, item 12: the published balena-cli (npm package `balena-cli`, pinned in
// packages/server's devDependencies) pointed at a Flotilla server, as docs/guide/balena-cli.md
// tells a user to do. Every command runs the real CLI in a child process over real HTTP.

const require = createRequire(import.meta.url);
const CLI = join(require.resolve('balena-cli/package.json'), '..', 'bin', 'run.js');

let t: TestApp;
let apiUrl: string;
let owner: SignedUpUser;
let home: string;
let fleetSlug: string;
let deviceUuid: string;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `balena <args>` against the test server with its own settings directory. */
function balena(args: string[], opts: { home?: string; withoutEnv?: string[] } = {}): Promise<CliResult> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: opts.home ?? home,
    // Where the CLI keeps its token, and the server it talks to (docs/guide/balena-cli.md).
    BALENARC_DATA_DIRECTORY: join(home, '.balena'),
    BALENARC_API_URL: apiUrl,
    // No network beyond the test server: no error reporting, analytics, update or
    // deprecation checks (they call balena's and npm's servers).
    BALENARC_NO_SENTRY: '1',
    BALENARC_NO_ANALYTICS: '1',
    NO_UPDATE_NOTIFIER: '1',
    BALENARC_UNSUPPORTED: '1',
    NO_COLOR: '1',
  };
  for (const name of opts.withoutEnv ?? []) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: opts.home ?? home, timeout: 60_000, env }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** `balena <args>` that must succeed; returns its standard output. */
async function ok(args: string[]): Promise<string> {
  const r = await balena(args);
  if (r.code !== 0) throw new Error(`balena ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  t = await buildTestApp();
  apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  home = await mkdtemp(join(tmpdir(), 'flotilla-balena-cli-'));
  owner = await signUp(t.app);
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  const apiKey = await sdk.models.apiKey.create({ name: 'balena-cli', expiryDate: null });
  const login = await balena(['login', '--token', apiKey]);
  expect(login.code, login.stderr).toBe(0);
  expect(login.stdout).toContain(`Successfully logged in as: ${owner.username}`);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (home) await rm(home, { recursive: true, force: true });
});

describe('balena-cli against a Flotilla server', () => {
  it('whoami names the user the token belongs to', async () => {
    const out = await ok(['whoami']);
    expect(out).toMatch(new RegExp(`USERNAME:\\s+${owner.username}`));
  });

  it('creates a fleet and lists it (balena fleet create / fleet list / fleet <slug>)', async () => {
    const created = await ok(['fleet', 'create', 'cli-fleet', '--type', 'raspberrypi3', '--organization', owner.username]);
    fleetSlug = `${owner.username}/cli-fleet`.toLowerCase();
    expect(created).toContain(`Fleet created: slug "${fleetSlug}", device type "raspberrypi3"`);

    const list = await ok(['fleet', 'list']);
    const row = list.split('\n').find((l) => l.includes(fleetSlug));
    expect(row, list).toBeDefined();
    expect(row).toMatch(/cli-fleet\s+\S+\s+raspberrypi3\s+0\s+0/);

    const one = await ok(['fleet', fleetSlug]);
    expect(one).toContain('== cli-fleet');
    expect(one).toMatch(/DEVICE TYPE:\s+raspberrypi3/);
  }, 60_000);

  it('lists devices and shows one device (balena device list / device <uuid>)', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    deviceUuid = sdk.models.device.generateUniqueKey();
    await sdk.models.device.register(fleetSlug, deviceUuid);
    await sdk.models.device.rename(deviceUuid, 'cli-device');

    const list = await ok(['device', 'list', '--fleet', fleetSlug]);
    const row = list.split('\n').find((l) => l.includes(deviceUuid.slice(0, 7)));
    expect(row, list).toBeDefined();
    expect(row).toContain('cli-device');
    expect(row).toContain('raspberrypi3');

    const all = await ok(['device', 'list']);
    expect(all).toContain('cli-device');

    const one = await ok(['device', deviceUuid]);
    expect(one).toContain('== CLI DEVICE'); // the CLI upper-cases the heading
    expect(one).toMatch(new RegExp(`UUID:\\s+${deviceUuid}`));
    expect(one).toMatch(/DEVICE TYPE:\s+raspberrypi3/);
  }, 60_000);

  it('sets, lists and removes fleet and device variables (balena env set / env list / env rm)', async () => {
    await ok(['env', 'set', 'GREETING', 'hello', '--fleet', fleetSlug]);
    await ok(['env', 'set', 'BALENA_SUPERVISOR_POLL_INTERVAL', '900000', '--fleet', fleetSlug]);
    await ok(['env', 'set', 'DEVICE_ONLY', 'yes', '--device', deviceUuid]);

    const fleetVars = await ok(['env', 'list', '--fleet', fleetSlug]);
    expect(fleetVars).toMatch(/GREETING\s+hello/);
    const fleetConfig = await ok(['env', 'list', '--fleet', fleetSlug, '--config']);
    expect(fleetConfig).toMatch(/BALENA_SUPERVISOR_POLL_INTERVAL\s+900000/);
    const deviceVars = await ok(['env', 'list', '--device', deviceUuid]);
    expect(deviceVars).toMatch(/DEVICE_ONLY\s+yes/);
    // A device's list shows the fleet's values it inherits (DEVICE column '*').
    expect(deviceVars).toMatch(/GREETING\s+hello\s+\S+\/cli-fleet\s+\*/);

    // The CLI removes by id: the first column of `env list`.
    const id = /^(\d+)\s+GREETING/m.exec(fleetVars)?.[1];
    expect(id, fleetVars).toBeDefined();
    await ok(['env', 'rm', id!, '--yes']);
    const afterRm = await balena(['env', 'list', '--fleet', fleetSlug]);
    expect(afterRm.stdout + afterRm.stderr).toContain(`No environment variables found for fleet "${fleetSlug}"`);

    // The server's variable rules reach the CLI user.
    const bad = await balena(['env', 'set', 'BALENA_API_KEY', 'x', '--fleet', fleetSlug]);
    expect(bad.code).not.toBe(0);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    expect(await sdk.models.application.envVar.get(fleetSlug, 'BALENA_API_KEY')).toBeUndefined();
  }, 90_000);

  it('sets, lists and removes fleet and device tags (balena tag set / tag list / tag rm)', async () => {
    await ok(['tag', 'set', 'site', 'north', '--fleet', fleetSlug]);
    await ok(['tag', 'set', 'rack', '7', '--device', deviceUuid]);
    expect(await ok(['tag', 'list', '--fleet', fleetSlug])).toMatch(/site\s+north/);
    expect(await ok(['tag', 'list', '--device', deviceUuid])).toMatch(/rack\s+7/);
    await ok(['tag', 'rm', 'site', '--fleet', fleetSlug]);
    const after = await balena(['tag', 'list', '--fleet', fleetSlug]);
    expect(after.stdout + after.stderr).not.toMatch(/site\s+north/);
  }, 60_000);

  it('lists a fleet’s releases and shows one (balena release list / release <commit>)', async () => {
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const app = await sdk.models.application.get(fleetSlug, { $select: 'id' });
    const commit = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const release = (await sdk.pine.post({
      resource: 'release',
      body: {
        belongs_to__application: app.id,
        is_created_by__user: owner.userId,
        commit,
        status: 'success',
        source: 'cloud',
        composition: { version: '2.1', services: { main: { image: 'busybox' } } },
        start_timestamp: new Date(),
        end_timestamp: new Date(),
        semver: '1.2.3',
      },
    })) as { id: number };

    const list = await ok(['release', 'list', fleetSlug]);
    const row = list.split('\n').find((l) => l.startsWith(String(release.id)));
    expect(row, list).toBeDefined();
    expect(row).toContain(commit.slice(0, 7));
    expect(row).toContain('success');
    expect(row).toContain('1.2.3');

    const one = await ok(['release', commit]);
    expect(one).toMatch(new RegExp(`COMMIT:\\s+${commit}`));
    expect(one).toMatch(/STATUS:\s+success/);
  }, 60_000);

  it('finds the server from a .balenarc.yml, as docs/guide/balena-cli.md tells users', async () => {
    // A user's own settings file ($HOME/.balenarc.yml) instead of the environment variable.
    const userHome = await mkdtemp(join(home, 'user-home-'));
    await writeFile(join(userHome, '.balenarc.yml'), `apiUrl: ${apiUrl}\n`);
    const r = await balena(['whoami'], { home: userHome, withoutEnv: ['BALENARC_API_URL'] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`USERNAME:\\s+${owner.username}`));
  }, 60_000);

  it('reports a fleet the user cannot see as not found', async () => {
    const stranger = await signUp(t.app);
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(stranger.token);
    await sdk.models.application.create({ name: 'hidden', organization: stranger.username, deviceType: 'raspberrypi3' });
    const r = await balena(['fleet', `${stranger.username}/hidden`.toLowerCase()]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Application not found|Fleet not found/);
  }, 60_000);
});

describe('GET /config/vars (read by balena-cli before `env set`)', () => {
  it('answers balena-sdk config.getConfigVarSchema with the name rules and the device type’s configuration schema', async () => {
    const sdk = sdkClient(apiUrl);
    const rules = (await sdk.models.config.getConfigVarSchema()) as unknown as Record<string, unknown>;
    expect(rules).toMatchObject({ reservedNamespaces: ['RESIN_', 'BALENA_'], blackListedNames: [] });
    expect(rules.reservedNames).toContain('BALENA_API_KEY');
    expect(rules.whiteListedNames).toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect((rules.configVarSchema as { properties: object }).properties).toEqual({});

    await sdk.auth.loginWithToken(owner.token);
    const pi = (await sdk.models.config.getConfigVarSchema('raspberrypi3')) as unknown as { configVarSchema: { properties: Record<string, { type: string; will_reboot?: boolean }> } };
    expect(pi.configVarSchema.properties.BALENA_HOST_CONFIG_gpu_mem).toMatchObject({ type: 'integer', will_reboot: true });
    const nuc = (await sdk.models.config.getConfigVarSchema('intel-nuc')) as unknown as typeof pi;
    expect(nuc.configVarSchema.properties.BALENA_SUPERVISOR_POLL_INTERVAL).toBeDefined();
    expect(nuc.configVarSchema.properties.BALENA_HOST_CONFIG_gpu_mem).toBeUndefined();
  });
});
