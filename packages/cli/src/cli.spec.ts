import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, main } from './cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-cli-main-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, { env: { FLOTILLA_CONFIG_DIR: dir, ...env }, cwd: dir });
  return { code, stdout, stderr };
}

describe('flotilla command line', () => {
  it('help exits 0; no command, an unknown command or option exits 1 with the usage', async () => {
    expect((await run(['help'])).code).toBe(EXIT.ok);
    expect((await run(['--help'])).stdout).toContain('Usage: flotilla <command>');
    expect((await run([])).code).toBe(EXIT.usage);
    const unknown = await run(['push']);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('Unknown command "push"');
    const option = await run(['deploy', 'o/f', '--colour']);
    expect(option.code).toBe(EXIT.usage);
    expect(option.stderr).toContain("Unknown option '--colour'");
  });

  it('deploy needs exactly one fleet and a semver like 1.2.3', async () => {
    expect((await run(['deploy'])).stderr).toContain('Name one fleet');
    expect((await run(['deploy', 'a/b', 'c/d'])).code).toBe(EXIT.usage);
    const semver = await run(['deploy', 'o/f', '--semver', 'v1']);
    expect(semver.code).toBe(EXIT.usage);
    expect(semver.stderr).toContain('--semver must be a version like 1.2.3');
  });

  it('deploy --dry-run checks the project in the current directory without credentials', async () => {
    await writeFile(join(dir, 'Dockerfile'), 'FROM scratch\n');
    const ok = await run(['deploy', 'o/f', '--dry-run']);
    expect(ok.code, ok.stderr).toBe(EXIT.ok);
    expect(ok.stdout).toContain('main: build . (Dockerfile)');
    await writeFile(join(dir, 'docker-compose.yml'), 'services:\n  web:\n    build: ./missing\n    privileged: true\n');
    const bad = await run(['deploy', 'o/f', '--dry-run']);
    expect(bad.code).toBe(EXIT.failed);
    expect(bad.stderr).toContain('docker-compose.yml: service "web": unsupported key "privileged"');
  });

  it('deploy --dry-run warns about keys the agent ignores and still accepts the project', async () => {
    await writeFile(join(dir, 'Dockerfile'), 'FROM scratch\n');
    await writeFile(join(dir, 'docker-compose.yml'), 'services:\n  web:\n    build: .\n    tty: true\n');
    const r = await run(['deploy', 'o/f', '--dry-run']);
    expect(r.code, r.stderr).toBe(EXIT.ok);
    expect(r.stderr).toContain('Warning: service "web": "tty" is ignored: flotilla-agent does not apply it');
  });

  it('names build contexts and Dockerfiles that do not exist', async () => {
    await writeFile(join(dir, 'docker-compose.yaml'), 'services:\n  web:\n    build: ./missing\n  api:\n    build: { context: ., dockerfile: Dockerfile.api }\n');
    const r = await run(['deploy', 'o/f', '--dry-run']);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('service "web": build context "./missing" is not a directory');
    expect(r.stderr).toContain('service "api": Dockerfile.api not found in "."');
  });

  it('an empty directory is not a project', async () => {
    const r = await run(['deploy', 'o/f', '--dry-run']);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('has no docker-compose.yml, docker-compose.yaml or Dockerfile');
  });

  it('whoami and deploy without a login say how to log in', async () => {
    await writeFile(join(dir, 'Dockerfile'), 'FROM scratch\n');
    for (const argv of [['whoami'], ['deploy', 'o/f']]) {
      const r = await run(argv);
      expect(r.code).toBe(EXIT.failed);
      expect(r.stderr).toContain('not logged in: run "flotilla login"');
    }
  });

  it('login refuses an API URL that is not http(s)', async () => {
    const r = await run(['login', '--token', 't', '--api', 'ftp://x']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('must be http(s)');
  });

  it('deploy --supervisor checks its arguments before reading credentials or the file', async () => {
    const usage = async (argv: string[], text: string) => {
      const r = await run(['deploy', ...argv]);
      expect(r.code, argv.join(' ')).toBe(EXIT.usage);
      expect(r.stderr, argv.join(' ')).toContain(text);
    };
    await usage(['--supervisor', '--file', 'a.mjs'], '--supervisor needs --version <x.y.z>');
    await usage(['--supervisor', '--version', '17.1', '--file', 'a.mjs'], '--version must be a version like 17.1.0, not "17.1"');
    await usage(['--supervisor', '--version', '17.1.0'], '--supervisor needs --file <agent.mjs>');
    await usage(['--supervisor', '--version', '17.1.0', '--file', 'a.mjs', '--arch', 'ARM 64'], '--arch must be a CPU architecture (like aarch64) or all, not "ARM 64"');
    await usage(['o/f', '--supervisor', '--version', '17.1.0', '--file', 'a.mjs'], 'not to a fleet: remove "o/f"');
    await usage(['--supervisor', '--version', '17.1.0', '--file', 'a.mjs', '--semver', '1.0.0'], '--semver does not apply to --supervisor');
    await usage(['o/f', '--version', '17.1.0'], '--version is for --supervisor only');
    // Valid arguments: then the login is needed.
    const r = await run(['deploy', '--supervisor', '--version', '17.1.0', '--file', 'a.mjs']);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('not logged in');
  });

  it('deploy --supervisor names a missing build file, without contacting the server', async () => {
    const r = await run(['deploy', '--supervisor', '--version', '17.1.0', '--file', 'missing.mjs'], { FLOTILLA_API_URL: 'http://127.0.0.1:9', FLOTILLA_TOKEN: 't' });
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain(`--file ${join(dir, 'missing.mjs')}: no such file`);
  });
});
