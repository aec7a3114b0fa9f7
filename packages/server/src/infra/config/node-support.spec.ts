import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The Node versions the README and package.json `engines` state must be true of what is
// installed: the version running these tests (CI's) is supported, the version recommended for
// production satisfies every dependency's own `engines`, and each dependency that asks for
// more than our minimum is named in the README (npm ci warns about it there).
const root = new URL('../../../../../', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const engines = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** name@version → engines.node of every package installed under node_modules (nested too). */
function installedEngines(): Map<string, { name: string; range: string }> {
  const found = new Map<string, { name: string; range: string }>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        walk(path);
        continue;
      }
      const manifest = join(path, 'package.json');
      if (existsSync(manifest)) {
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
        if (pkg.name && typeof pkg.engines?.node === 'string') found.set(`${pkg.name}@${pkg.version}`, { name: pkg.name, range: pkg.engines.node });
      }
      if (existsSync(join(path, 'node_modules'))) walk(join(path, 'node_modules'));
    }
  };
  walk(join(root, 'node_modules'));
  return found;
}

/** name@version of the packages installed for development and tests only (lockfile `dev`). */
function devOnly(): Set<string> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { name?: string; version?: string; dev?: boolean }> };
  const ids = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!entry.dev || !path.includes('node_modules/')) continue;
    ids.add(`${entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`);
  }
  return ids;
}

describe('supported Node versions (README, package.json engines)', () => {
  const installed = installedEngines();

  it('the README states the engines range, and the Node running the tests (CI) is inside it', () => {
    expect(semver.validRange(engines)).not.toBeNull();
    expect(readme).toContain(`\`${engines}\``);
    expect(semver.satisfies(process.version, engines)).toBe(true);
  });

  it('the Node version recommended for production satisfies every production dependency', () => {
    const m = /recommended for production: Node\.js (\d+\.\d+)/i.exec(readme);
    expect(m).not.toBeNull();
    const recommended = `${m![1]}.0`;
    expect(semver.satisfies(recommended, engines)).toBe(true);
    // Test-only tools (balena-cli and what it pulls in) do not run in production.
    const dev = devOnly();
    expect(dev.has([...installed.keys()].find((id) => id.startsWith('vitest@'))!)).toBe(true);
    const refusing = [...installed]
      .filter(([id, { range }]) => !dev.has(id) && semver.validRange(range) && !semver.satisfies(recommended, range))
      .map(([id]) => id);
    expect(refusing).toEqual([]);
  });

  it('every dependency that asks for more than our range is named in the README', () => {
    const stricter = [...new Set([...installed.values()].filter(({ range }) => semver.validRange(range) && !semver.subset(engines, range)).map(({ name }) => name))];
    expect(stricter.length).toBeGreaterThan(0);
    for (const name of stricter) expect(readme, `${name} asks for Node ${[...installed.values()].find((p) => p.name === name)!.range}`).toContain(`\`${name}\``);
  });
});
