import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * One real container engine per test run: Debian's Podman serving the Docker-compatible API
 * on a unix socket (what dockerode, the agent and `flotilla deploy` speak). Used by the api
 * tier (vitest global setup) and by the e2e tier.
 *
 * This machine's facts (also in the README's Tests section): crun fails on the hybrid cgroup layout, so runc;
 * containers.conf must clear default_ulimits; registries on loopback are plain HTTP, so they
 * are declared insecure (Docker treats 127.0.0.0/8 that way by default).
 *
 * Test images need no network: `FROM scratch` + busybox-static's /bin/busybox.
 */

const run = promisify(execFile);

export const PODMAN = '/usr/bin/podman';
export const RUNC = '/usr/sbin/runc';
export const BUSYBOX = '/usr/bin/busybox';
/** Built once per engine start; every test image can start `FROM` it. */
export const TEST_BASE_IMAGE = 'localhost/flotilla-test/busybox:1';
/** Every container, image and volume a test creates carries this label (value: a test id). */
export const TEST_LABEL = 'io.flotilla.test';

export interface TestEngine {
  /** `unix:///…/podman.sock`, for DOCKER_HOST. */
  dockerHost: string;
  socketPath: string;
  /** Environment for the podman CLI so it sees the same configuration (push/pull tests). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

function missing(): string[] {
  return [PODMAN, RUNC, BUSYBOX].filter((p) => !existsSync(p));
}

/** GET /_ping on the socket until it answers (or the deadline passes). */
async function waitForSocket(socketPath: string, child: ChildProcess, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`podman system service exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const req = request({ socketPath, path: '/_ping', method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.end();
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`podman socket ${socketPath} did not answer within ${ms} ms`);
}

export async function startTestEngine(): Promise<TestEngine> {
  const absent = missing();
  if (absent.length > 0) {
    throw new Error(
      `The container tests need Podman, runc and busybox-static (missing: ${absent.join(', ')}). ` +
        'Install them with: apt-get install -y podman runc busybox-static docker-registry skopeo',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-test-engine-'));
  const containersConf = join(dir, 'containers.conf');
  const registriesConf = join(dir, 'registries.conf');
  await writeFile(containersConf, '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n');
  // Registries the tests start listen on loopback over plain HTTP.
  await writeFile(
    registriesConf,
    'unqualified-search-registries = []\n\n[[registry]]\nlocation = "127.0.0.1"\ninsecure = true\n\n[[registry]]\nlocation = "localhost"\ninsecure = true\n',
  );
  const env = {
    CONTAINERS_CONF: containersConf,
    CONTAINERS_REGISTRIES_CONF: registriesConf,
  };
  const socketPath = join(dir, 'podman.sock');
  const child = spawn(PODMAN, ['--runtime', RUNC, 'system', 'service', '--time=0', `unix://${socketPath}`], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  await waitForSocket(socketPath, child);

  // The offline base image.
  const ctx = join(dir, 'base');
  await run('mkdir', ['-p', ctx]);
  await copyFile(BUSYBOX, join(ctx, 'busybox'));
  await writeFile(join(ctx, 'Dockerfile'), 'FROM scratch\nCOPY busybox /bin/busybox\nCMD ["/bin/busybox", "sh"]\n');
  await run(PODMAN, ['--runtime', RUNC, 'build', '-q', '-t', TEST_BASE_IMAGE, ctx], { env: { ...process.env, ...env } });

  return {
    dockerHost: `unix://${socketPath}`,
    socketPath,
    env,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 200));
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Run the podman CLI against the test engine's configuration (a real registry client). */
export async function podman(engine: Pick<TestEngine, 'env'>, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(PODMAN, ['--runtime', RUNC, ...args], {
    env: { ...process.env, ...engine.env },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * Remove every container, network, volume and image carrying `label` (with `value`, or any
 * value): what a test, or the agent of a test's device (`io.flotilla.device-uuid`), made.
 */
export async function removeByLabel(engine: Pick<TestEngine, 'env'>, label: string, value?: string): Promise<void> {
  const filter = value === undefined ? `label=${label}` : `label=${label}=${value}`;
  const ids = async (args: string[]) =>
    (await podman(engine, args).catch(() => ({ stdout: '' }))).stdout.split('\n').map((s) => s.trim()).filter(Boolean);
  const containers = await ids(['ps', '-aq', '--filter', filter]);
  if (containers.length) await podman(engine, ['rm', '-f', '-t', '0', ...containers]).catch(() => undefined);
  // The agent's networks carry its device's and services' labels: without this, every run left
  // one per device in /etc/containers/networks (hundreds on a developer's machine, each a subnet).
  const networks = await ids(['network', 'ls', '-q', '--filter', filter]);
  if (networks.length) await podman(engine, ['network', 'rm', '-f', ...networks]).catch(() => undefined);
  const volumes = await ids(['volume', 'ls', '-q', '--filter', filter]);
  if (volumes.length) await podman(engine, ['volume', 'rm', '-f', ...volumes]).catch(() => undefined);
  const images = await ids(['images', '-q', '--filter', filter]);
  if (images.length) await podman(engine, ['rmi', '-f', ...images]).catch(() => undefined);
}

/** Remove every container, network, volume and image labelled with this test id. */
export function removeLabelled(engine: Pick<TestEngine, 'env'>, testId: string): Promise<void> {
  return removeByLabel(engine, TEST_LABEL, testId);
}
