import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, normaliseApiUrl, readConfig, removeConfig, resolveConfig, writeConfig } from './config.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-cli-config-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('CLI configuration', () => {
  it('lives in ~/.flotilla/config.json unless FLOTILLA_CONFIG_DIR moves it', () => {
    expect(configPath({ HOME: '/home/ann' })).toBe('/home/ann/.flotilla/config.json');
    expect(configPath({ HOME: '/home/ann', FLOTILLA_CONFIG_DIR: '/etc/fl' })).toBe('/etc/fl/config.json');
  });

  it('is written with mode 0600 in a 0700 directory and read back', async () => {
    const env = { FLOTILLA_CONFIG_DIR: join(dir, 'nested') };
    const path = await writeConfig(env, { apiUrl: 'http://api.example', token: 'secret' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ apiUrl: 'http://api.example', token: 'secret' });
    expect(await readConfig(env)).toEqual({ apiUrl: 'http://api.example', token: 'secret' });
  });

  it('FLOTILLA_API_URL and FLOTILLA_TOKEN win over the file, field by field; no file needed', async () => {
    const env = { FLOTILLA_CONFIG_DIR: dir };
    expect(await resolveConfig(env)).toEqual({ apiUrl: 'http://localhost:8080' });
    expect(await resolveConfig({ ...env, FLOTILLA_API_URL: 'https://fleet.example/', FLOTILLA_TOKEN: 't' })).toEqual({ apiUrl: 'https://fleet.example', token: 't' });
    await writeConfig(env, { apiUrl: 'http://saved', token: 'saved-token' });
    expect(await resolveConfig(env)).toEqual({ apiUrl: 'http://saved', token: 'saved-token' });
    expect(await resolveConfig({ ...env, FLOTILLA_TOKEN: 'env-token' })).toEqual({ apiUrl: 'http://saved', token: 'env-token' });
  });

  it('logout removes the saved login', async () => {
    const env = { FLOTILLA_CONFIG_DIR: dir };
    expect(await removeConfig(env)).toBe(false);
    await writeConfig(env, { apiUrl: 'http://saved', token: 't' });
    expect(await removeConfig(env)).toBe(true);
    expect(await readConfig(env)).toBeUndefined();
    expect(await resolveConfig(env)).toEqual({ apiUrl: 'http://localhost:8080' });
  });

  it('accepts only http(s) API URLs', () => {
    expect(normaliseApiUrl('http://h:8080/')).toBe('http://h:8080');
    expect(() => normaliseApiUrl('ftp://h')).toThrow(/must be http/);
    expect(() => normaliseApiUrl('not a url')).toThrow();
  });
});
