import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OsUpdateParams } from '@flotilla/model';
import { afterAll, describe, expect, it } from 'vitest';
import { hookScriptDir } from './hook-script-dir.js';
import { installedOsVersion, osUpdateHookEnv, parseOsUpdateHookLine, runOsUpdateHook } from './os-update-hook.js';

const { dir, script, remove } = hookScriptDir('flotilla-os-hook-');
afterAll(remove);

const params: OsUpdateParams = { targetVersion: '6.1.0+rev0.prod', version: '6.1.0+rev0', variant: 'prod', kind: 'balenahup', takeover: false, image: 'https://example.test/os/6.1.0.img' };
const ctx = { uuid: 'a'.repeat(32), deviceType: 'raspberrypi3', osVersion: 'balenaOS 6.0.10' };

describe('parsing the OS update hook output', () => {
  it('reads progress lines, whole and clamped to 0..100, with their step', () => {
    expect(parseOsUpdateHookLine('progress 40 Downloading')).toEqual({ kind: 'progress', percent: 40, message: 'Downloading' });
    expect(parseOsUpdateHookLine('  PROGRESS 12.6% Writing the image  ')).toEqual({ kind: 'progress', percent: 13, message: 'Writing the image' });
    expect(parseOsUpdateHookLine('progress 250 done')).toMatchObject({ percent: 100 });
    expect(parseOsUpdateHookLine('progress -5')).toEqual({ kind: 'progress', percent: 0, message: '' });
  });

  it('reads the installed version, other text, and nothing from blank lines', () => {
    expect(parseOsUpdateHookLine('version balenaOS 6.1.0+rev0')).toEqual({ kind: 'version', version: 'balenaOS 6.1.0+rev0' });
    expect(parseOsUpdateHookLine('progress forty')).toEqual({ kind: 'text', text: 'progress forty' });
    expect(parseOsUpdateHookLine('mounting /dev/mmcblk0p3')).toEqual({ kind: 'text', text: 'mounting /dev/mmcblk0p3' });
    expect(parseOsUpdateHookLine('   ')).toBeNull();
  });

  it('reports the named version, else balenaOS and the target version tag', () => {
    expect(installedOsVersion(params, null)).toBe('balenaOS 6.1.0+rev0');
    expect(installedOsVersion(params, 'balenaOS 6.1.0')).toBe('balenaOS 6.1.0');
  });

  it('gives the hook the target version and image as arguments and in its environment', () => {
    const { args, env } = osUpdateHookEnv({ ...params, image: null, takeover: true }, ctx);
    expect(args).toEqual(['6.1.0+rev0', '']);
    expect(env).toMatchObject({ FLOTILLA_OS_UPDATE_VERSION: '6.1.0+rev0', FLOTILLA_OS_UPDATE_TARGET: '6.1.0+rev0.prod', FLOTILLA_OS_UPDATE_IMAGE: '', FLOTILLA_OS_UPDATE_TAKEOVER: '1', FLOTILLA_DEVICE_UUID: ctx.uuid, FLOTILLA_OS_VERSION: 'balenaOS 6.0.10' });
  });
});

describe('running the OS update hook', () => {
  it('passes arguments and environment, relays progress and other lines, and resolves with the version it names', async () => {
    const got = join(dir, 'args.txt');
    const hook = script('ok.sh', `echo "$1 $2 $FLOTILLA_OS_UPDATE_KIND $FLOTILLA_DEVICE_TYPE" > ${got}\necho "progress 10 Downloading"\necho "checking the image"\nprintf 'progress 80 Writing'\necho\necho "version balenaOS 6.1.0"`);
    const progress: [number, string][] = [];
    const text: string[] = [];
    const version = await runOsUpdateHook(hook, params, ctx, { progress: (p, m) => progress.push([p, m]), text: (t) => text.push(t) });
    expect(version).toBe('balenaOS 6.1.0');
    expect(progress).toEqual([
      [10, 'Downloading'],
      [80, 'Writing'],
    ]);
    expect(text).toEqual(['checking the image']);
    expect(readFileSync(got, 'utf8').trim()).toBe('6.1.0+rev0 https://example.test/os/6.1.0.img balenahup raspberrypi3');
  });

  it('defaults to the target version, and fails with the exit code and stderr, a missing hook, or a timeout', async () => {
    await expect(runOsUpdateHook(script('quiet.sh', 'exit 0'), params, ctx, { progress: () => {} })).resolves.toBe('balenaOS 6.1.0+rev0');
    await expect(runOsUpdateHook(script('bad.sh', 'echo "progress 5 Downloading"; echo "no space left" >&2; exit 4'), params, ctx, { progress: () => {} })).rejects.toThrow(/exited with code 4: no space left/);
    await expect(runOsUpdateHook(join(dir, 'missing.sh'), params, ctx, { progress: () => {} })).rejects.toThrow(/could not run/);
    await expect(runOsUpdateHook(script('slow.sh', 'sleep 5'), params, ctx, { progress: () => {} }, 200)).rejects.toThrow(/timed out/);
  });
});
