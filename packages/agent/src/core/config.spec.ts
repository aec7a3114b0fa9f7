import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_POLL_INTERVAL_MS, DEFAULT_UPDATE_LOCK_PATH, normalizeConfig, registeredConfig } from './config.js';

const base = { apiEndpoint: 'http://api.example.com/', applicationId: 12, deviceType: 'raspberrypi3', apiKey: 'prov-key' };
let n = 0;
const fakeHex = (bytes: number) => String(++n).padStart(bytes * 2, 'a');

describe('config.json handling', () => {
  it('generates a 32-hex uuid and a device key when missing, and says the file must be written back', () => {
    const { config, changed } = normalizeConfig(base, fakeHex);
    expect(changed).toBe(true);
    expect(config.uuid).toMatch(/^[0-9a-f]{32}$/);
    expect(config.deviceApiKey).toHaveLength(32);
    expect(config.uuid).not.toBe(config.deviceApiKey);
  });

  it('keeps the registry endpoint as host[:port]', () => {
    expect(normalizeConfig({ ...base, registryEndpoint: 'https://registry.example.com:5000/' }, fakeHex).config.registryEndpoint).toBe('registry.example.com:5000');
    expect(normalizeConfig({ ...base, registryEndpoint: '' }, fakeHex).config).not.toHaveProperty('registryEndpoint');
  });

  it('keeps a given identity, trims the endpoint and fills the defaults', () => {
    const uuid = 'f'.repeat(32);
    const { config, changed } = normalizeConfig({ ...base, uuid, deviceApiKey: 'k' }, fakeHex);
    expect(changed).toBe(false);
    expect(config).toMatchObject({
      apiEndpoint: 'http://api.example.com',
      uuid,
      deviceApiKey: 'k',
      apiKey: 'prov-key',
      appUpdatePollInterval: DEFAULT_POLL_INTERVAL_MS,
      updateLockPath: DEFAULT_UPDATE_LOCK_PATH,
    });
  });

  it('keeps unknown balena fields untouched', () => {
    expect(normalizeConfig({ ...base, hostname: 'pi', persistentLogging: true }, fakeHex).config).toMatchObject({ hostname: 'pi', persistentLogging: true });
  });

  it.each([
    [{ ...base, apiEndpoint: 'ftp://x' }, 'apiEndpoint must be an http(s) URL'],
    [{ ...base, applicationId: 'abc' }, 'applicationId must be a positive integer'],
    [{ ...base, deviceType: undefined }, 'deviceType is required'],
    [{ ...base, uuid: 'ABC' }, 'uuid must be 32 lowercase hexadecimal characters'],
    [{ ...base, apiKey: undefined }, 'apiKey (the fleet provisioning key) is required'],
    [{ ...base, appUpdatePollInterval: 10 }, 'appUpdatePollInterval must be'],
    [[], 'config must be a JSON object'],
  ])('rejects %j', (raw, message) => {
    expect(() => normalizeConfig(raw, fakeHex)).toThrow(ConfigError);
    expect(() => normalizeConfig(raw, fakeHex)).toThrow(message);
  });

  it('accepts a registered device without a provisioning key', () => {
    const { config } = normalizeConfig({ ...base, apiKey: undefined, deviceId: 5, uuid: 'a'.repeat(32), deviceApiKey: 'k' }, fakeHex);
    expect(config.deviceId).toBe(5);
    expect('apiKey' in config).toBe(false);
  });

  it('drops the provisioning key once registered and records the device id', () => {
    const { config } = normalizeConfig(base, fakeHex);
    const next = registeredConfig(config, 99, 1_700_000_000_000);
    expect(next.deviceId).toBe(99);
    expect(next.registered_at).toBe(1_700_000_000_000);
    expect('apiKey' in next).toBe(false);
    expect(next.uuid).toBe(config.uuid);
    expect(config.apiKey).toBe('prov-key');
  });
});
