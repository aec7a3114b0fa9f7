import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sdkClient, signUp, type SignedUpUser } from './harness.js';
import { TEST_BASE_IMAGE, TEST_LABEL, podman, removeLabelled } from './support/engine.js';
import { freePort } from './support/net.js';
import { startRegistryServer, type RegistryServer } from './support/registry.js';
import { testEngine } from './support/test-engine.js';

// Issue 14 item 2: `flotilla deploy` (packages/cli) run as a child process against a server on
// real HTTP, building with the run's Podman engine and pushing to the server's embedded
// registry with a registry token the engine obtains with the user's credentials; the release,
// images and links are read back through balena-sdk and the pushed images pulled by digest.

const CLI = fileURLToPath(new URL('../../cli/bin/flotilla.mjs', import.meta.url));
const engine = testEngine();
const testId = `cli-deploy-${randomBytes(4).toString('hex')}`;

let server: RegistryServer;
let app: FastifyInstance;
let apiUrl: string;
let owner: SignedUpUser;
let fleetSlug: string;
let fleetId: number;
let work: string;
let registryHost: string;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `flotilla <args>` with the test server, the engine and a private config directory. */
function flotilla(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: work,
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: work,
          FLOTILLA_CONFIG_DIR: join(work, 'config'),
          FLOTILLA_API_URL: apiUrl,
          FLOTILLA_TOKEN: owner.token,
          DOCKER_HOST: engine.dockerHost,
          ...env,
        },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** A project directory with the given files. */
async function project(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(work, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

interface ReleaseRow {
  id: number;
  status: string;
  commit: string;
  is_final: boolean;
  semver: string;
  note: string | null;
  composition: { services: Record<string, Record<string, unknown>> };
  release_image: { image: ImageRow[] }[];
}
interface ImageRow {
  id: number;
  status: string;
  content_hash: string | null;
  image_size: number | string | null;
  build_log: string | null;
  dockerfile: string | null;
  push_timestamp: string | null;
  is_stored_at__image_location: string;
  is_a_build_of__service: { service_name: string }[];
}

async function releaseByCommit(commit: string): Promise<ReleaseRow> {
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  const [release] = (await (sdk.pine as unknown as { get(p: unknown): Promise<unknown> }).get({
    resource: 'release',
    options: {
      $filter: { commit, belongs_to__application: fleetId },
      $expand: {
        release_image: {
          $expand: {
            image: {
              $select: ['id', 'status', 'content_hash', 'image_size', 'build_log', 'dockerfile', 'push_timestamp', 'is_stored_at__image_location'],
              $expand: { is_a_build_of__service: { $select: ['service_name'] } },
            },
          },
        },
      },
    },
  })) as ReleaseRow[];
  if (!release) throw new Error(`no release with commit ${commit}`);
  return release;
}

const images = (r: ReleaseRow) =>
  Object.fromEntries(r.release_image.map((ri) => [ri.image[0]!.is_a_build_of__service[0]!.service_name, ri.image[0]!]));

const commitOf = (stdout: string) => /\(commit ([0-9a-f]{32})\)/.exec(stdout)?.[1];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'flotilla-cli-deploy-'));
  // The server with its embedded registry, its public URL its own loopback address: image
  // locations are `127.0.0.1:<port>/v2/<hex>`, pushed to with a registry token for the user.
  server = await startRegistryServer();
  app = server.app;
  apiUrl = server.url;
  registryHost = server.host;
  owner = await signUp(app);
  const sdk = sdkClient(apiUrl);
  await sdk.auth.loginWithToken(owner.token);
  const fleet = await sdk.models.application.create({ name: 'deploy-fleet', deviceType: 'raspberrypi3', organization: owner.orgId });
  fleetId = fleet.id;
  fleetSlug = `${owner.username}/deploy-fleet`.toLowerCase();
}, 120_000);

afterAll(async () => {
  await removeLabelled(engine, testId);
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Runs a command-line tool other than podman (skopeo), with the engine's registries.conf. */
function tool(argv: string[]): Promise<{ stdout: string }> {
  return new Promise((done, fail) => {
    execFile(argv[0]!, argv.slice(1), { env: { ...process.env, ...engine.env }, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) fail(new Error(`${argv.join(' ')}: ${stderr}`));
      else done({ stdout: String(stdout) });
    });
  });
}

const dockerfile = (extra: string) => `FROM ${TEST_BASE_IMAGE}\n${extra}\n`;

describe('flotilla deploy', () => {
  it('builds a two-service compose project, pushes both images and finalizes the release; the images pull by digest', async () => {
    const dir = await project('two-services', {
      'docker-compose.yml': [
        'version: "2.1"',
        'services:',
        '  api:',
        '    build:',
        '      context: ./api',
        '      labels:',
        `        ${TEST_LABEL}: ${testId}`,
        '    environment:',
        '      GREETING: hello',
        '    restart: always',
        '    volumes:',
        '      - data:/data',
        '  worker:',
        '    build:',
        '      context: worker',
        '      dockerfile: Dockerfile.worker',
        '      labels:',
        `        ${TEST_LABEL}: ${testId}`,
        '    command: ["/bin/busybox", "sleep", "3600"]',
        '    depends_on: [api]',
        'volumes:',
        '  data: {}',
        '',
      ].join('\n'),
      'api/Dockerfile': dockerfile(`RUN ["/bin/busybox", "sh", "-c", "echo api-${testId} > /api.txt"]\nCOPY . /ctx/`),
      // The build context leaves out what .dockerignore names.
      'api/.dockerignore': 'secret.txt\n',
      'api/secret.txt': 'not for the image\n',
      'api/shipped.txt': 'in the image\n',
      'worker/Dockerfile.worker': dockerfile(`RUN ["/bin/busybox", "sh", "-c", "echo worker-${testId} > /worker.txt"]`),
    });

    const r = await flotilla(['deploy', fleetSlug, '--source', dir, '--note', 'first deploy', '--semver', '1.2.3']);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    // Progress per service, while it builds and pushes.
    expect(r.stdout).toMatch(/\[api\] STEP 2\/4: RUN/);
    expect(r.stdout).toMatch(/\[worker\] STEP 2\/3: RUN/);
    expect(r.stdout).toMatch(/\[api\] Pushing \d+%/);
    expect(r.stdout).toMatch(/\[worker\] Pushing \d+%/);

    const commit = commitOf(r.stdout);
    expect(commit).toMatch(/^[0-9a-f]{32}$/);
    const release = await releaseByCommit(commit!);
    expect(release.status).toBe('success');
    expect(release.is_final).toBe(true);
    expect(release.semver).toBe('1.2.3');
    expect(release.note).toBe('first deploy');
    expect(release.composition.services.api).toMatchObject({ environment: { GREETING: 'hello' }, restart: 'always', volumes: ['data:/data'] });
    expect(release.composition.services.worker).toMatchObject({ command: ['/bin/busybox', 'sleep', '3600'], depends_on: ['api'] });

    const byService = images(release);
    expect(Object.keys(byService).sort()).toEqual(['api', 'worker']);

    // The fleet tracks the latest release: a device of it is told to run these images by digest.
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const device = await sdk.models.device.register(fleetSlug, sdk.models.device.generateUniqueKey());
    const state = await fetch(`${apiUrl}/device/v3/${device.uuid}/state`, { headers: { authorization: `Bearer ${device.api_key}` } });
    expect(state.status).toBe(200);
    const apps = ((await state.json()) as Record<string, { apps: Record<string, { releases: Record<string, { services: Record<string, { image: string }> }> }> }>)[device.uuid]!.apps;
    const target = Object.values(apps).flatMap((a) => Object.entries(a.releases));
    expect(target.map(([c]) => c)).toEqual([commit]);
    expect(Object.fromEntries(Object.entries(target[0]![1].services).map(([n, sv]) => [n, sv.image]))).toEqual({
      api: `${byService.api!.is_stored_at__image_location}@${byService.api!.content_hash}`,
      worker: `${byService.worker!.is_stored_at__image_location}@${byService.worker!.content_hash}`,
    });
    for (const [name, image] of Object.entries(byService)) {
      expect(image.status, name).toBe('success');
      expect(image.content_hash, name).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(Number(image.image_size), name).toBeGreaterThan(0);
      expect(image.push_timestamp, name).not.toBeNull();
      expect(image.build_log, name).toContain(`${name}-${testId}`);
      expect(image.dockerfile, name).toContain(`echo ${name}-${testId}`);
      expect(image.is_stored_at__image_location.startsWith(`${registryHost}/v2/`), name).toBe(true);

      // The device pulls it from the registry by digest with its key, as a supervisor does
      // (the local copy dropped first so the pull is real).
      const ref = `${image.is_stored_at__image_location}@${image.content_hash}`;
      await podman(engine, ['rmi', '-f', `${image.is_stored_at__image_location}:latest`]);
      await podman(engine, ['pull', '--quiet', '--creds', `d_${device.uuid}:${device.api_key}`, ref]);
      const { stdout } = await podman(engine, ['run', '--rm', '--label', `${TEST_LABEL}=${testId}`, ref, '/bin/busybox', 'cat', `/${name}.txt`]);
      expect(stdout.trim()).toBe(`${name}-${testId}`);
    }
    const api = byService.api!;
    const { stdout: ctx } = await podman(engine, ['run', '--rm', '--label', `${TEST_LABEL}=${testId}`, `${api.is_stored_at__image_location}@${api.content_hash}`, '/bin/busybox', 'ls', '-a', '/ctx']);
    expect(ctx.split('\n')).toEqual(expect.arrayContaining(['Dockerfile', '.dockerignore', 'shipped.txt']));
    expect(ctx).not.toContain('secret.txt');
  }, 180_000);

  it('leaves a failed release with the build log when a Dockerfile is broken, and exits non-zero', async () => {
    const dir = await project('broken', {
      'docker-compose.yml': [
        'services:',
        '  good:',
        '    build:',
        '      context: good',
        '      labels:',
        `        ${TEST_LABEL}: ${testId}`,
        '  bad:',
        '    build:',
        '      context: bad',
        '      labels:',
        `        ${TEST_LABEL}: ${testId}`,
        '',
      ].join('\n'),
      'good/Dockerfile': dockerfile('RUN ["/bin/busybox", "true"]'),
      'bad/Dockerfile': dockerfile(`RUN ["/bin/busybox", "sh", "-c", "echo broken-${testId}; exit 3"]`),
    });
    const r = await flotilla(['deploy', fleetSlug, '--source', dir]);
    expect(r.code, r.stdout).not.toBe(0);
    expect(r.stderr).toContain('building service "bad" failed');

    const release = await releaseByCommit(commitOf(r.stdout)!);
    expect(release.status).toBe('failed');
    const byService = images(release);
    expect(byService.good!.status).toBe('success');
    expect(byService.bad!.status).toBe('failed');
    expect(byService.bad!.build_log).toContain(`broken-${testId}`);
    expect(byService.bad!.build_log).toMatch(/error/i);
    expect(byService.bad!.content_hash).toBeNull();
  }, 180_000);

  it('pushes a service given as an existing image, as that service\'s release image (logged in with an API key)', async () => {
    const dir = await project('image-only', { 'docker-compose.yml': `services:\n  base:\n    image: ${TEST_BASE_IMAGE}\n    command: [/bin/busybox, sleep, '60']\n` });
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const apiKey = await sdk.models.apiKey.create({ name: 'cli-deploy', expiryDate: null });
    const r = await flotilla(['deploy', fleetSlug, '--source', dir], { FLOTILLA_TOKEN: apiKey });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain(`[base] Using ${TEST_BASE_IMAGE}`);
    const release = await releaseByCommit(commitOf(r.stdout)!);
    expect(release.status).toBe('success');
    const image = images(release).base!;
    expect(image.status).toBe('success');
    // In the registry under the image's location (read there by skopeo, not from the engine's storage).
    const { stdout } = await tool(['skopeo', 'inspect', '--tls-verify=false', '--creds', `${owner.username}:${owner.token}`, `docker://${image.is_stored_at__image_location}@${image.content_hash}`]);
    expect(JSON.parse(stdout)).toMatchObject({ Digest: image.content_hash });
    // …and only with credentials: the registry asked for the token the CLI handed the engine.
    await expect(tool(['skopeo', 'inspect', '--tls-verify=false', '--no-creds', `docker://${image.is_stored_at__image_location}@${image.content_hash}`])).rejects.toThrow();
    await podman(engine, ['rmi', `${image.is_stored_at__image_location}:latest`]);
  }, 120_000);

  it('a push the registry cannot take leaves the release failed with the push error in the image\'s build log', async () => {
    // A second server whose image locations name a registry nobody listens on.
    const deadPort = await freePort();
    const other = await startRegistryServer({ externalUrl: `http://127.0.0.1:${deadPort}` });
    try {
      const user = await signUp(other.app);
      const sdk = sdkClient(other.url);
      await sdk.auth.loginWithToken(user.token);
      const fleet = await sdk.models.application.create({ name: 'unreachable', deviceType: 'raspberrypi3', organization: user.orgId });
      const dir = await project('push-fails', {
        'docker-compose.yml': ['services:', '  main:', '    build:', '      context: .', '      labels:', `        ${TEST_LABEL}: ${testId}`, ''].join('\n'),
        Dockerfile: dockerfile('RUN ["/bin/busybox", "true"]'),
      });
      const r = await flotilla(['deploy', `${user.username}/unreachable`.toLowerCase(), '--source', dir], { FLOTILLA_API_URL: other.url, FLOTILLA_TOKEN: user.token });
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain('pushing service "main" failed');
      const [release] = (await (sdk.pine as unknown as { get(p: unknown): Promise<unknown> }).get({
        resource: 'release',
        options: {
          $filter: { belongs_to__application: fleet.id },
          $expand: { release_image: { $expand: { image: { $select: ['status', 'build_log', 'error_message', 'content_hash'] } } } },
        },
      })) as { status: string; release_image: { image: { status: string; build_log: string; error_message: string; content_hash: string | null }[] }[] }[];
      expect(release!.status).toBe('failed');
      const image = release!.release_image[0]!.image[0]!;
      expect(image.status).toBe('failed');
      expect(image.content_hash).toBeNull();
      expect(image.build_log).toMatch(/STEP 2\/\d: RUN/);
      expect(image.build_log).toContain(`127.0.0.1:${deadPort}`);
      expect(image.error_message).toContain('pushing service "main" failed');
    } finally {
      await other.close();
    }
  }, 120_000);

  it('refuses a fleet the caller cannot see, creating nothing', async () => {
    const dir = await project('nowhere', { Dockerfile: dockerfile('') });
    const stranger = await signUp(app);
    const r = await flotilla(['deploy', fleetSlug, '--source', dir], { FLOTILLA_TOKEN: stranger.token });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`fleet "${fleetSlug}" not found`);
    expect(r.stdout).not.toContain('Created release');
  });

  it('Ctrl-C during a build stops it and leaves the release and its images interrupted', async () => {
    const dir = await project('interrupted', {
      'docker-compose.yml': ['services:', '  slow:', '    build:', '      context: .', '      labels:', `        ${TEST_LABEL}: ${testId}`, ''].join('\n'),
      Dockerfile: dockerfile('RUN ["/bin/busybox", "sh", "-c", "echo sleeping; /bin/busybox sleep 5"]'),
    });
    const child = spawn(process.execPath, [CLI, 'deploy', fleetSlug, '--source', dir], {
      env: { PATH: process.env.PATH ?? '', HOME: work, FLOTILLA_CONFIG_DIR: join(work, 'config'), FLOTILLA_API_URL: apiUrl, FLOTILLA_TOKEN: owner.token, DOCKER_HOST: engine.dockerHost },
    });
    let stdout = '';
    const exited = new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1)));
    await new Promise<void>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/\[slow\] STEP 2\/\d: RUN/.test(stdout)) done();
      });
      child.on('exit', () => fail(new Error(`deploy exited early: ${stdout}`)));
    });
    child.kill('SIGINT');
    expect(await exited).not.toBe(0);
    const release = await releaseByCommit(commitOf(stdout)!);
    expect(release.status).toBe('interrupted');
    expect(images(release).slow!.status).toBe('interrupted');
  }, 120_000);

  it('--dry-run refuses a compose key it does not support, naming service and key, and creates nothing', async () => {
    const dir = await project('unsupported', {
      'docker-compose.yml': ['services:', '  main:', '    build: .', '    cap_add: [NET_ADMIN]', ''].join('\n'),
      Dockerfile: dockerfile(''),
    });
    const sdk = sdkClient(apiUrl);
    await sdk.auth.loginWithToken(owner.token);
    const before = await sdk.models.release.getAllByApplication(fleetId, { $select: ['id'] });

    const r = await flotilla(['deploy', fleetSlug, '--source', dir, '--dry-run']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('service "main": unsupported key "cap_add"');

    const plain = await flotilla(['deploy', fleetSlug, '--source', dir]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toContain('unsupported key "cap_add"');
    expect(await sdk.models.release.getAllByApplication(fleetId, { $select: ['id'] })).toHaveLength(before.length);
  });

  it('--dry-run of a valid project prints the plan and builds nothing', async () => {
    const dir = await project('single', { Dockerfile: dockerfile('') });
    const r = await flotilla(['deploy', fleetSlug, '--source', dir, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('main: build . (Dockerfile)');
    expect(r.stdout).toContain('Dry run');
  });
});

describe('flotilla login and whoami', () => {
  it('login --token checks the token, saves it with mode 0600, whoami reads it back, logout forgets it', async () => {
    const configDir = join(work, 'login-token');
    const env = { FLOTILLA_CONFIG_DIR: configDir, FLOTILLA_API_URL: '', FLOTILLA_TOKEN: '' };
    const bad = await flotilla(['login', '--token', 'not-a-token', '--api', apiUrl], env);
    expect(bad.code).not.toBe(0);
    await expect(stat(join(configDir, 'config.json'))).rejects.toThrow();

    const r = await flotilla(['login', '--token', owner.token, '--api', apiUrl], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`as ${owner.username}`);
    const file = join(configDir, 'config.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ apiUrl, token: owner.token });

    const who = await flotilla(['whoami'], env);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain(owner.username);

    const out = await flotilla(['logout'], env);
    expect(out.code, out.stderr).toBe(0);
    const after = await flotilla(['whoami'], env);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('not logged in');
  });

  it('login without --token takes the token the dashboard posts to its loopback callback', async () => {
    const configDir = join(work, 'login-browser');
    const child = spawn(process.execPath, [CLI, 'login', '--api', apiUrl, '--timeout', '60'], {
      env: { PATH: process.env.PATH ?? '', HOME: work, FLOTILLA_CONFIG_DIR: configDir },
    });
    let stdout = '';
    const exited = new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1)));
    const pageUrl = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const m = /(http:\/\/\S+\/login\/cli\/\S+)/.exec(stdout);
        if (m) done(m[1]!);
      });
      child.on('exit', () => fail(new Error(`login exited early: ${stdout}`)));
    });
    // The dashboard's /login/cli page reads the callback from its path and posts the form there.
    const encoded = pageUrl.slice(pageUrl.indexOf('/login/cli/') + '/login/cli/'.length);
    const callback = decodeURIComponent(decodeURIComponent(encoded));
    expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth$/);
    expect(pageUrl.startsWith(`${apiUrl}/login/cli/`)).toBe(true);

    const wrong = await fetch(callback, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=wrong' });
    expect(wrong.status).toBe(401);
    const posted = await fetch(callback, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: owner.token }).toString(),
    });
    expect(posted.status).toBe(200);
    expect(await exited).toBe(0);
    expect(stdout).toContain(`as ${owner.username}`);
    expect(JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'))).toEqual({ apiUrl, token: owner.token });
  });
});
