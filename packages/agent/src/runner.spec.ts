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
