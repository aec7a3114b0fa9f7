import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookScriptDir } from './hook-script-dir.js';
import { builtInRebootNames, loadAppliedHostConfig, runConfigHook, saveAppliedHostConfig } from './config-hook.js';
import type { ConfigHookDocument } from '../core/device-config.js';

const { dir, script, remove } = hookScriptDir('flotilla-hook-');
afterAll(remove);

const doc: ConfigHookDocument = { version: 1, uuid: 'u'.repeat(32), deviceType: 'raspberrypi4-64', config: { BALENA_HOST_CONFIG_gpu_mem: '128' }, changed: ['BALENA_HOST_CONFIG_gpu_mem'], reboot: ['BALENA_HOST_CONFIG_gpu_mem'] };

describe('the config hook', () => {
  it('gets the document as JSON on stdin and succeeds on exit 0', async () => {
    const out = join(dir, 'got.json');
    await runConfigHook(script('ok.sh', `cat > ${out}`), doc);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(doc);
  });

  it('fails with its exit code and the end of its stderr, or when it cannot run', async () => {
    await expect(runConfigHook(script('bad.sh', 'echo "no config.txt here" >&2; exit 3'), doc)).rejects.toThrow(/exited with code 3: no config.txt here/);
    await expect(runConfigHook(join(dir, 'missing.sh'), doc)).rejects.toThrow(/could not run/);
  });

  it('is killed and fails after its timeout', async () => {
    const started = Date.now();
    await expect(runConfigHook(script('slow.sh', 'exec sleep 5'), doc, 300)).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('keeps the host configuration last accepted across restarts; knows the will_reboot variables of the built-in device types', async () => {
    const file = join(dir, 'config.json.host-config.json');
    expect(await loadAppliedHostConfig(file)).toBeNull();
    await saveAppliedHostConfig(file, { A: '1' });
    expect(await loadAppliedHostConfig(file)).toEqual({ A: '1' });
    expect(builtInRebootNames('raspberrypi4')).toContain('BALENA_HOST_CONFIG_gpu_mem');
    expect(builtInRebootNames('generic-amd64')).not.toContain('BALENA_HOST_CONFIG_gpu_mem');
    expect(builtInRebootNames('unknown').size).toBe(0);
  });
});
