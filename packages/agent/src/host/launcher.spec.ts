import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLauncherState, runLauncher } from './launcher.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-launcher-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/**
 * The launcher's own build: on its first start it stages `next` (as the agent does after
 * verifying a download) and exits 75; on later starts it records that it ran and exits 0.
 */
async function selfBuild(next: string, version: string): Promise<string> {
  const path = join(dir, 'self.mjs');
  await writeFile(
    path,
    `import { existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
const state = ${JSON.stringify(join(dir, 'state.json'))};
const marker = ${JSON.stringify(join(dir, 'started-once'))};
appendFileSync(${JSON.stringify(join(dir, 'runs'))}, 'self\\n');
if (!existsSync(marker)) {
  writeFileSync(marker, '1');
  const s = existsSync(state) ? JSON.parse(readFileSync(state, 'utf8')) : {};
  writeFileSync(state, JSON.stringify({ ...s, staged: { version: ${JSON.stringify(version)}, path: ${JSON.stringify(next)}, sha256: 'ab' } }));
  process.exit(75);
}
`,
  );
  return path;
}

const logs: string[] = [];
const launch = (self: string) => runLauncher({ self, args: [], stateFile: join(dir, 'state.json'), probationMs: 10_000, log: (m) => logs.push(m) });

describe('runLauncher', () => {
  it('starts a staged build on probation and makes it current once it reports healthy', async () => {
    const good = join(dir, 'good.mjs');
    await writeFile(good, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(join(dir, 'runs'))}, 'good ' + process.env.FLOTILLA_AGENT_PROBATION + '\\n');\nprocess.send({ type: 'healthy' });\nsetTimeout(() => process.exit(0), 300);\n`);
    const code = await launch(await selfBuild(good, '15.0.0'));
    expect(code).toBe(0);
    expect(await readFile(join(dir, 'runs'), 'utf8')).toBe('self\ngood 1\n');
    const state = await readLauncherState(join(dir, 'state.json'));
    expect(state.current).toEqual({ version: '15.0.0', path: good });
    expect(state.staged).toBeNull();
    expect(logs).toContain('launcher: build 15.0.0 is healthy: it is the current build');
  });

  it('rolls back a staged build that exits during its start: the previous build runs again, the failure recorded', async () => {
    const bad = join(dir, 'bad.mjs');
    await writeFile(bad, 'process.exit(3);\n');
    const code = await launch(await selfBuild(bad, '15.1.0'));
    expect(code).toBe(0);
    expect(await readFile(join(dir, 'runs'), 'utf8')).toBe('self\nself\n');
    const state = await readLauncherState(join(dir, 'state.json'));
    expect(state.current).toBeNull();
    expect(state.staged).toBeNull();
    expect(state.failed).toMatchObject({ version: '15.1.0', sha256: 'ab', reason: 'it exited during its start (code 3)' });
    expect(state.failureReported).toBe(false);
    expect(existsSync(bad)).toBe(false);
  });
});
