import { spawn } from 'node:child_process';
import type { OsUpdateParams } from '@flotilla/model';

/**
 * The host OS update hook of `flotilla-agent run` (`--os-update-hook` /
 * `FLOTILLA_OS_UPDATE_HOOK`, docs/agent.md "Host OS updates"): an operator's executable that
 * installs a host OS version. It gets the target version and the image location as its two
 * arguments and in the environment, reports progress on stdout as lines
 * `progress <0-100> <what it does>`, may name the OS version it installed with a line
 * `version <os version>` (the last one counts; default `balenaOS <target version>`), and exits
 * 0 once the new OS is installed. The agent then reboots the host (its reboot path) and
 * reports that version from then on.
 */

export const DEFAULT_OS_UPDATE_HOOK_TIMEOUT_MS = 60 * 60_000;

export class OsUpdateHookError extends Error {}

export type OsUpdateHookLine = { kind: 'progress'; percent: number; message: string } | { kind: 'version'; version: string } | { kind: 'text'; text: string };

/** One line of the hook's stdout: progress (percent clamped to 0..100, whole), the installed version, or anything else (logged). */
export function parseOsUpdateHookLine(line: string): OsUpdateHookLine | null {
  const text = line.trim();
  if (text === '') return null;
  const progress = /^progress\s+(-?\d+(?:\.\d+)?)%?(?:\s+(.*))?$/i.exec(text);
  if (progress) {
    const percent = Math.min(100, Math.max(0, Math.round(Number(progress[1]))));
    return { kind: 'progress', percent, message: (progress[2] ?? '').trim().slice(0, 200) };
  }
  const version = /^version\s+(\S.*)$/i.exec(text);
  if (version) return { kind: 'version', version: version[1]!.trim().slice(0, 100) };
  return { kind: 'text', text: text.slice(0, 500) };
}

/** The OS version a device reports after installing `params`: the hook's `version` line, else `balenaOS <version tag>`. */
export function installedOsVersion(params: Pick<OsUpdateParams, 'version'>, reported: string | null): string {
  return reported ?? `balenaOS ${params.version}`;
}

export interface OsUpdateHookContext {
  uuid: string;
  deviceType: string;
  /** The OS version the device reports now. */
  osVersion: string;
}

/** The hook's arguments and environment. */
export function osUpdateHookEnv(params: OsUpdateParams, ctx: OsUpdateHookContext): { args: string[]; env: Record<string, string> } {
  const image = params.image ?? '';
  return {
    args: [params.version, image],
    env: {
      FLOTILLA_OS_UPDATE_VERSION: params.version,
      FLOTILLA_OS_UPDATE_TARGET: params.targetVersion,
      FLOTILLA_OS_UPDATE_VARIANT: params.variant ?? '',
      FLOTILLA_OS_UPDATE_IMAGE: image,
      FLOTILLA_OS_UPDATE_KIND: params.kind,
      FLOTILLA_OS_UPDATE_TAKEOVER: params.takeover ? '1' : '0',
      FLOTILLA_DEVICE_UUID: ctx.uuid,
      FLOTILLA_DEVICE_TYPE: ctx.deviceType,
      FLOTILLA_OS_VERSION: ctx.osVersion,
    },
  };
}

/**
 * Runs the hook; `onProgress` gets each progress line, `onText` other lines. Resolves with the
 * OS version to report once it exits 0; rejects on another exit code or a signal (with the end
 * of its stderr), when it cannot start, or after `timeoutMs` (it is killed).
 */
export function runOsUpdateHook(
  path: string,
  params: OsUpdateParams,
  ctx: OsUpdateHookContext,
  on: { progress(percent: number, message: string): void; text?(text: string): void },
  timeoutMs = DEFAULT_OS_UPDATE_HOOK_TIMEOUT_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let reported: string | null = null;
    let stderr = '';
    let pending = '';
    const { args, env } = osUpdateHookEnv(params, ctx);
    const child = spawn(path, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const done = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(installedOsVersion(params, reported));
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(new OsUpdateHookError(`OS update hook ${path} timed out after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    const take = (line: string) => {
      const parsed = parseOsUpdateHookLine(line);
      if (parsed?.kind === 'progress') on.progress(parsed.percent, parsed.message);
      else if (parsed?.kind === 'version') reported = parsed.version;
      else if (parsed?.kind === 'text') on.text?.(parsed.text);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      // A line without an end is kept up to 4 KB; beyond, it is taken as it is.
      if (pending.length > 4096) {
        lines.push(pending);
        pending = '';
      }
      for (const line of lines) take(line);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-500);
    });
    child.on('error', (err) => done(new OsUpdateHookError(`OS update hook ${path} could not run: ${err.message}`)));
    child.on('close', (code, signal) => {
      if (pending !== '') take(pending);
      pending = '';
      if (code === 0) return done(null);
      const why = code !== null ? `exited with code ${code}` : `was killed by ${signal}`;
      const tail = stderr.trim();
      done(new OsUpdateHookError(`OS update hook ${path} ${why}${tail ? `: ${tail}` : ''}`));
    });
  });
}
