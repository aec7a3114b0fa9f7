import { describe, expect, it } from 'vitest';
import { DEPLOY_STORAGE_KEY, loadDeployRequest, parseDeployQuery, setDeployTarget, storeDeployRequest } from './deploy-request';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const now = new Date('2026-05-01T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const DAY = 24 * 60 * 60 * 1000;

describe('parseDeployQuery', () => {
  it('reads the four parameters', () => {
    expect(
      parseDeployQuery('?repoUrl=https://github.com/a/b&tarballUrl=https://x.test/r.tar.gz&configUrl=https://x.test/c.json&defaultDeviceType=intel-nuc'),
    ).toEqual({ repoUrl: 'https://github.com/a/b', tarballUrl: 'https://x.test/r.tar.gz', configUrl: 'https://x.test/c.json', defaultDeviceType: 'intel-nuc' });
  });
  it('defaults the device type to the 64-bit Raspberry Pi 4', () => {
    expect(parseDeployQuery('repoUrl=https://github.com/a/b')).toEqual({ repoUrl: 'https://github.com/a/b', defaultDeviceType: 'raspberrypi4-64' });
    expect(parseDeployQuery('repoUrl=https://github.com/a/b&defaultDeviceType=<script>')?.defaultDeviceType).toBe('raspberrypi4-64');
  });
  it('keeps only http(s) URLs and needs a repository or an archive', () => {
    expect(parseDeployQuery('repoUrl=javascript:alert(1)')).toBeNull();
    expect(parseDeployQuery('configUrl=https://x.test/c.json')).toBeNull();
    expect(parseDeployQuery('tarballUrl=https://x.test/r.tgz&configUrl=file:///etc/passwd')).toEqual({
      tarballUrl: 'https://x.test/r.tgz',
      defaultDeviceType: 'raspberrypi4-64',
    });
  });
});

describe('stored deploy request', () => {
  it('is valid for one day, then removed', () => {
    const storage = memoryStorage();
    storeDeployRequest(storage, { repoUrl: 'https://github.com/a/b', defaultDeviceType: 'raspberrypi4-64' }, now);
    expect(loadDeployRequest(storage, later(DAY - 1000))).toEqual({ repoUrl: 'https://github.com/a/b', defaultDeviceType: 'raspberrypi4-64' });
    expect(loadDeployRequest(storage, later(DAY))).toBeNull();
    expect(storage.items.has(DEPLOY_STORAGE_KEY)).toBe(false);
  });
  it('treats unreadable contents as absent', () => {
    const storage = memoryStorage();
    storage.setItem(DEPLOY_STORAGE_KEY, '{not json');
    expect(loadDeployRequest(storage, now)).toBeNull();
    expect(storage.items.size).toBe(0);
  });
  it('records the chosen fleet without extending the day', () => {
    const storage = memoryStorage();
    storeDeployRequest(storage, { repoUrl: 'https://github.com/a/b', defaultDeviceType: 'raspberrypi4-64' }, now);
    expect(setDeployTarget(storage, 42, later(DAY / 2))).toMatchObject({ fleetId: 42 });
    expect(loadDeployRequest(storage, later(DAY / 2))?.fleetId).toBe(42);
    expect(loadDeployRequest(storage, later(DAY + 1))).toBeNull();
    expect(setDeployTarget(storage, 43, later(DAY + 1))).toBeNull();
  });
});
