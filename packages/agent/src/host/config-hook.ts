import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { DEVICE_TYPES } from '@flotilla/model';
import type { ConfigHookDocument } from '../core/device-config.js';
import { rebootNames } from '../core/device-config.js';
import type { HttpClient } from '../net/http-client.js';
import { parseJson } from '../net/http-client.js';
import { saveJsonFile } from '../core/config.js';

/**
 * The host side of configuration variables (`flotilla-agent run`): the config hook
 * (`FLOTILLA_CONFIG_HOOK` / `--config-hook`), which configuration needs a reboot (the device
 * type's schema from `GET /config/vars`), and the host configuration last accepted, kept
 * beside config.json so a restart neither re-runs the hook nor reboots again.
 */

export const DEFAULT_CONFIG_HOOK_TIMEOUT_MS = 30_000;

export class ConfigHookError extends Error {}

/**
 * Runs the hook with the document as JSON on its stdin. Resolves when it exits 0; rejects
 * on another exit code or signal (with the end of its stderr), when it cannot start, or when
 * it is still running after `timeoutMs` (then it is killed).
 */
export function runConfigHook(path: string, doc: ConfigHookDocument, timeoutMs = DEFAULT_CONFIG_HOOK_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    let stderr = '';
    const child = spawn(path, [], { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, FLOTILLA_DEVICE_UUID: doc.uuid } });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(new ConfigHookError(`config hook ${path} timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-500);
    });
    child.on('error', (err) => done(new ConfigHookError(`config hook ${path} could not run: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return done();
      const why = code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
      const tail = stderr.trim();
      done(new ConfigHookError(`config hook ${path} ${why}${tail ? `: ${tail}` : ''}`));
    });
    // A hook that does not read its stdin must not fail the write (EPIPE).
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(doc)}\n`);
  });
}

/**
 * The configuration variables of a device type that need a reboot: the server's schema
 * (`GET /config/vars?deviceType=<slug>`, public), or the catalogue the agent was built with
 * when the server cannot be asked.
 */
export async function fetchRebootNames(http: HttpClient, deviceType: string): Promise<Set<string>> {
  try {
    const res = await http.request({ method: 'GET', path: `/config/vars?deviceType=${encodeURIComponent(deviceType)}` });
    const body = res.status === 200 ? (parseJson(res.text) as { configVarSchema?: { properties?: Record<string, { will_reboot?: boolean }> } } | null) : null;
    const properties = body?.configVarSchema?.properties;
    if (properties && Object.keys(properties).length > 0) return rebootNames(properties);
  } catch {
    // Fall through to the built-in catalogue.
  }
  return builtInRebootNames(deviceType);
}

export function builtInRebootNames(deviceType: string): Set<string> {
  const type = DEVICE_TYPES.find((t) => t.slug === deviceType || t.aliases?.includes(deviceType));
  return rebootNames(type?.configVars ?? {});
}

/** The host configuration last accepted (null when none was, or the file is unreadable). */
export async function loadAppliedHostConfig(path: string): Promise<Record<string, string> | null> {
  try {
    const parsed = parseJson(await readFile(path, 'utf8')) as { config?: unknown } | null;
    const config = parsed?.config;
    if (typeof config !== 'object' || config === null || Array.isArray(config)) return null;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(config)) if (typeof v === 'string') out[k] = v;
    return out;
  } catch {
    return null;
  }
}

export async function saveAppliedHostConfig(path: string, config: Record<string, string>): Promise<void> {
  await saveJsonFile(path, { config, appliedAt: new Date().toISOString() });
}
