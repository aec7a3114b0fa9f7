import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from './cli.js';
import { runCommand } from './runner.js';

describe('flotilla-agent run --engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-runner-'));
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('exits with a clear error (status 2) when no engine answers, leaving config.json as it was', async () => {
    const config = join(dir, 'config.json');
    const original = JSON.stringify({ apiEndpoint: 'http://127.0.0.1:9', applicationId: 1, deviceType: 'generic-amd64', apiKey: 'k' });
    writeFileSync(config, original);
    vi.stubEnv('DOCKER_HOST', `unix://${join(dir, 'no-engine.sock')}`);
    let stderr = '';
    const code = await runCommand({ kind: 'run', config, engine: 'podman', allowPower: false }, { stdout: () => {}, stderr: (t) => (stderr += t) });
    expect(code).toBe(EXIT.failed);
    expect(stderr).toContain(`flotilla-agent: no podman engine answers: tried unix://${join(dir, 'no-engine.sock')}`);
    expect(stderr).toContain('--engine none');
    expect(readFileSync(config, 'utf8')).toBe(original);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('flotilla-agent simulate --quiet', () => {
  it('prints each failure with its cause on stderr (the summary only counts them)', async () => {
    const { createServer } = await import('node:http');
    const { spawn } = await import('node:child_process');
    // An API that refuses every registration with a reason.
    const server = createServer((req, res) => {
      req.resume();
      if (req.method === 'POST' && req.url?.startsWith('/device/register')) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the database is restarting' }));
      } else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const bin = new URL('../bin/flotilla-agent.mjs', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [bin, 'simulate', '--api', `http://127.0.0.1:${port}`, '--provisioning-key', 'k', '--count', '2', '--fleet', '1', '--device-type', 'raspberrypi3', '--ramp', '0', '--no-link', '--no-logs', '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8');
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no failure line within 30 s; stderr: ${stderr}`)), 30_000);
        child.stderr.on('data', (t: string) => {
          stderr += t;
          if ((stderr.match(/register-failed: /g) ?? []).length >= 2) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      child.kill('SIGKILL');
      server.close();
    }
    const lines = stderr.split('\n').filter((l) => l.includes('register-failed: '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // The time, the device, the kind and the server's answer.
    expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\S+ \[[0-9a-f]{7}\] register-failed: .*503/);
  }, 40_000);
});
