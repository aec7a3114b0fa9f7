import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Test support for the host hooks' specs (config hook, OS update hook): a temporary folder of
 * executable `#!/bin/sh` scripts. `script(name, body)` writes one and returns its path;
 * `remove()` deletes the folder (call it from afterAll).
 */
export function hookScriptDir(prefix: string): { dir: string; script: (name: string, body: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    script(name, body) {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
