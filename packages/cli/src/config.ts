import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What `flotilla login` keeps: the API's URL and the token (session token or API key). */
export interface CliConfig {
  apiUrl: string;
  token: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** `$FLOTILLA_CONFIG_DIR`, else `~/.flotilla`. */
export function configDir(env: Env): string {
  return env.FLOTILLA_CONFIG_DIR || join(env.HOME || homedir(), '.flotilla');
}

export function configPath(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** The saved configuration, or undefined when there is none (or it is unreadable). */
export async function readConfig(env: Env): Promise<Partial<CliConfig> | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(configPath(env), 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { apiUrl, token } = parsed as Record<string, unknown>;
    return { ...(typeof apiUrl === 'string' ? { apiUrl } : {}), ...(typeof token === 'string' ? { token } : {}) };
  } catch {
    return undefined;
  }
}

/** Writes the configuration with mode 0600 (directory 0700), replacing it atomically. */
export async function writeConfig(env: Env, config: CliConfig): Promise<string> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = configPath(env);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
  return path;
}

/** Forgets the saved login (the file is removed); true when there was one. */
export async function removeConfig(env: Env): Promise<boolean> {
  const existed = (await readConfig(env)) !== undefined;
  await rm(configPath(env), { force: true });
  return existed;
}

/** Default API when neither flag, environment nor file names one. */
export const DEFAULT_API_URL = 'http://localhost:8080';

/** Drops a trailing slash so paths join cleanly. */
export function normaliseApiUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the API URL must be http(s): ${url}`);
  return parsed.toString().replace(/\/+$/, '');
}

/**
 * The credentials a command uses: FLOTILLA_API_URL / FLOTILLA_TOKEN from the environment win
 * over the file, field by field.
 */
export async function resolveConfig(env: Env): Promise<{ apiUrl: string; token?: string }> {
  const file = (await readConfig(env)) ?? {};
  const apiUrl = normaliseApiUrl(env.FLOTILLA_API_URL || file.apiUrl || DEFAULT_API_URL);
  const token = env.FLOTILLA_TOKEN || file.token;
  return token ? { apiUrl, token } : { apiUrl };
}
