import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';

/**
 * The agent's config.json, shaped like a balenaOS config.json (dialect §4.1) so an image
 * provisioned for balena needs no rewrite: `apiEndpoint`, `applicationId`, `deviceType`,
 * `uuid`, `deviceApiKey` and, until the device is registered, `apiKey` (the fleet's
 * provisioning key). Flotilla additions are optional and named in the same style.
 */
export interface AgentConfig {
  apiEndpoint: string;
  applicationId: number;
  deviceType: string;
  /** 32 lowercase hexadecimal characters; generated and written back when missing. */
  uuid: string;
  /** The device's own API key; generated and written back when missing. */
  deviceApiKey: string;
  /** Provisioning key; dropped from the file once the device is registered. */
  apiKey?: string;
  /** Set once registered (balena writes `deviceId` and `registered_at` too). */
  deviceId?: number;
  registered_at?: number;
  /** Default poll interval in ms until the target state's config says otherwise. */
  appUpdatePollInterval: number;
  /** When this file exists, actions that would stop services answer 423 unless forced. */
  updateLockPath: string;
  /** Reported versions (a real balenaOS writes these elsewhere; here they are plain fields). */
  osVersion?: string;
  osVariant?: string;
  deviceName?: string;
  /**
   * balenaOS's registry host (`host[:port]`). The device's registry credentials go only to
   * this registry and to the API's own host (the embedded registry); images elsewhere are
   * pulled anonymously.
   */
  registryEndpoint?: string;
}

/** The server's default (@flotilla/model): the heartbeat sweep judges an unconfigured device by it. */
import { DEFAULT_POLL_INTERVAL_MS } from '@flotilla/model';
export { DEFAULT_POLL_INTERVAL_MS };
export const DEFAULT_UPDATE_LOCK_PATH = '/tmp/flotilla/updates.lock';
const UUID_RE = /^[0-9a-f]{32}$/;

export class ConfigError extends Error {}

export type RandomHex = (bytes: number) => string;
export const cryptoHex: RandomHex = (bytes) => randomBytes(bytes).toString('hex');

/**
 * Validates a parsed config.json and fills in what a fresh device generates itself (uuid,
 * device key, defaults). `changed` says whether the file must be written back so the
 * generated identity survives a restart.
 */
export function normalizeConfig(raw: unknown, randomHex: RandomHex = cryptoHex): { config: AgentConfig; changed: boolean } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('config must be a JSON object');
  const r = raw as Record<string, unknown>;
  const apiEndpoint = requireString(r, 'apiEndpoint');
  if (!/^https?:\/\/[^/]/.test(apiEndpoint)) throw new ConfigError(`apiEndpoint must be an http(s) URL, got "${apiEndpoint}"`);
  const applicationId = Number(r.applicationId);
  if (!Number.isInteger(applicationId) || applicationId <= 0) throw new ConfigError('applicationId must be a positive integer');
  const deviceType = requireString(r, 'deviceType');

  let changed = false;
  let uuid = optionalString(r, 'uuid');
  if (uuid === undefined) {
    uuid = randomHex(16);
    changed = true;
  } else if (!UUID_RE.test(uuid)) {
    throw new ConfigError('uuid must be 32 lowercase hexadecimal characters');
  }
  let deviceApiKey = optionalString(r, 'deviceApiKey');
  if (deviceApiKey === undefined) {
    deviceApiKey = randomHex(16);
    changed = true;
  }
  const apiKey = optionalString(r, 'apiKey');
  const deviceId = r.deviceId === undefined ? undefined : Number(r.deviceId);
  if (apiKey === undefined && deviceId === undefined) {
    throw new ConfigError('apiKey (the fleet provisioning key) is required until the device is registered');
  }
  const poll = r.appUpdatePollInterval === undefined ? DEFAULT_POLL_INTERVAL_MS : Number(r.appUpdatePollInterval);
  if (!Number.isFinite(poll) || poll < 1_000) throw new ConfigError('appUpdatePollInterval must be a number of milliseconds ≥ 1000');

  const config: AgentConfig = {
    ...(r as object),
    apiEndpoint: apiEndpoint.replace(/\/+$/, ''),
    applicationId,
    deviceType,
    uuid,
    deviceApiKey,
    appUpdatePollInterval: poll,
    updateLockPath: optionalString(r, 'updateLockPath') ?? DEFAULT_UPDATE_LOCK_PATH,
  };
  const registryEndpoint = optionalString(r, 'registryEndpoint');
  if (registryEndpoint === undefined) delete config.registryEndpoint;
  else config.registryEndpoint = registryEndpoint.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  if (apiKey === undefined) delete config.apiKey;
  else config.apiKey = apiKey;
  if (deviceId !== undefined) config.deviceId = deviceId;
  return { config, changed };
}

/** The config after a successful registration: device id recorded, provisioning key dropped. */
export function registeredConfig(config: AgentConfig, deviceId: number, now: number): AgentConfig {
  const next: AgentConfig = { ...config, deviceId, registered_at: now };
  delete next.apiKey;
  return next;
}

function requireString(r: Record<string, unknown>, key: string): string {
  const v = optionalString(r, key);
  if (v === undefined) throw new ConfigError(`${key} is required`);
  return v;
}

function optionalString(r: Record<string, unknown>, key: string): string | undefined {
  const v = r[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ConfigError(`${key} must be a string`);
  return v;
}

export async function loadConfig(path: string): Promise<{ config: AgentConfig; changed: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  return normalizeConfig(raw);
}

/** Writes the file atomically (temp file + rename) so a crash never leaves half a config. */
export async function saveConfig(path: string, config: AgentConfig): Promise<void> {
  await saveJsonFile(path, config);
}

/** Writes a JSON file atomically (temp file + rename), readable by the owner only. */
export async function saveJsonFile(path: string, value: unknown): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, path);
}
