import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import type { Env } from './config.js';

/**
 * Where the local container engine listens: DOCKER_HOST (`unix:///…`, `tcp://host:port`),
 * else the first socket found among Docker's and Podman's usual paths.
 */
export function engineAddress(env: Env, exists: (path: string) => boolean = existsSync): { socketPath: string } | { host: string; port: number; protocol: 'http' | 'https' } {
  const dockerHost = env.DOCKER_HOST;
  if (dockerHost) {
    if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
    const url = new URL(dockerHost.replace(/^tcp:/, env.DOCKER_TLS_VERIFY ? 'https:' : 'http:'));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`DOCKER_HOST: unsupported address ${dockerHost}`);
    return { host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 2376 : 2375)), protocol: url.protocol === 'https:' ? 'https' : 'http' };
  }
  const candidates = ['/var/run/docker.sock', '/run/podman/podman.sock', ...(env.XDG_RUNTIME_DIR ? [join(env.XDG_RUNTIME_DIR, 'podman', 'podman.sock')] : [])];
  const found = candidates.find((p) => exists(p));
  if (!found) throw new Error(`no container engine found: set DOCKER_HOST, or start Docker or Podman (looked for ${candidates.join(', ')})`);
  return { socketPath: found };
}

export function connectEngine(env: Env): Docker {
  return new Docker(engineAddress(env));
}

/** One line of an engine's JSON progress stream (build or push). */
export interface ProgressEvent {
  stream?: string;
  status?: string;
  id?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string; Digest?: string; Tag?: string; Size?: number };
  message?: string;
}

/** Calls `onEvent` for each JSON line of an engine stream; resolves when the stream ends. */
export function readEvents(stream: NodeJS.ReadableStream, onEvent: (event: ProgressEvent) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const flush = (text: string) => {
      const line = text.trim();
      if (!line) return;
      try {
        onEvent(JSON.parse(line) as ProgressEvent);
      } catch {
        onEvent({ stream: `${line}\n` });
      }
    };
    stream.on('data', (chunk: Buffer | string) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        flush(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    });
    let ended = false;
    stream.on('end', () => {
      ended = true;
      flush(buffered);
      resolve();
    });
    stream.on('error', reject);
    // An aborted request closes without 'end'.
    stream.on('close', () => {
      if (!ended) reject(new Error('the engine closed the stream before it ended'));
    });
  });
}

/** The error an event carries, if any. */
export function eventError(event: ProgressEvent): string | undefined {
  return event.error ?? event.errorDetail?.message;
}

const DIGEST = /sha256:[0-9a-f]{64}/;

/** The pushed manifest's digest, from the push stream's `aux` or its "digest: sha256:…" status. */
export function pushedDigest(event: ProgressEvent): string | undefined {
  if (event.aux?.Digest && DIGEST.test(event.aux.Digest)) return event.aux.Digest;
  const m = /digest: (sha256:[0-9a-f]{64})/.exec(event.status ?? '');
  return m?.[1];
}

/**
 * Push progress as one percentage over all layers (bytes sent / bytes to send), from the
 * per-layer `Pushing` events; undefined until a size is known.
 */
export class PushProgress {
  private readonly layers = new Map<string, { current: number; total: number }>();

  update(event: ProgressEvent): number | undefined {
    if (event.id && event.progressDetail && typeof event.progressDetail.total === 'number' && event.progressDetail.total > 0) {
      this.layers.set(event.id, { current: event.progressDetail.current ?? 0, total: event.progressDetail.total });
    } else if (event.id && /^(Pushed|Layer already exists|Mounted from)/.test(event.status ?? '')) {
      const layer = this.layers.get(event.id);
      if (layer) layer.current = layer.total;
    }
    return this.percent();
  }

  percent(): number | undefined {
    let current = 0;
    let total = 0;
    for (const l of this.layers.values()) {
      current += Math.min(l.current, l.total);
      total += l.total;
    }
    return total > 0 ? Math.floor((current * 100) / total) : undefined;
  }
}
