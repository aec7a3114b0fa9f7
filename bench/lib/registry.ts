// Registry scenarios of issue 14: (n) pushing a 100 MB layer to the embedded registry, as a
// ratio of `cp` writing the same bytes to disk; (o) 20 devices pulling that layer at once, as
// a ratio of a bare node:http static server serving the same file. Both baselines run in
// this same run, on the same disk and CPUs.
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Api, firstRow } from './api.js';
import { fmt, row, type Row } from './evaluate.js';
import type { Outcome } from './outcome.js';
import { progress } from './phases.js';
import { freePort } from './ports.js';
import type { SeededUser } from './seed.js';
import { percentile } from './stats.js';

const median = (xs: number[]) => percentile(xs, 50);

const run = promisify(execFile);

export const REGISTRY_TARGETS = { pushPercent: 50, pullPercent: 50 } as const;

export interface RegistryConfig {
  layerBytes: number;
  pullers: number;
  repeats: number;
}

export function loadRegistryConfig(quick: boolean): RegistryConfig {
  return { layerBytes: (quick ? 20 : 100) * 1024 * 1024, pullers: 20, repeats: quick ? 1 : 3 };
}

export interface RegistryFigures {
  layerBytes: number;
  pullers: number;
  cpSeconds: number;
  /** The same bytes PUT to a bare node:http server that writes them to disk. */
  bareUploadSeconds: number;
  pushSeconds: number;
  baselinePullSeconds: number;
  pullSeconds: number;
}

async function writeRandomFile(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const chunk = 1024 * 1024;
  for (let written = 0; written < bytes; written += chunk) {
    const part = randomBytes(Math.min(chunk, bytes - written));
    hash.update(part);
    if (!out.write(part)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return `sha256:${hash.digest('hex')}`;
}

/** One HTTP request; the body (a file or nothing) streamed; resolves with status, headers and the byte count read. */
function http(
  url: string,
  method: string,
  headers: Record<string, string>,
  file?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (file) createReadStream(file, { highWaterMark: 1 << 20 }).pipe(req);
    else req.end();
  });
}

/**
 * Uploads a file with curl (a native client, as Docker's and Podman's are: a Node client
 * streaming 100 MB is slower than the servers measured here); answers the HTTP status.
 */
async function curlUpload(url: string, method: string, headers: Record<string, string>, file: string): Promise<number> {
  const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', method, '-T', file, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  const { stdout } = await run('curl', args, { maxBuffer: 1024 * 1024 });
  return Number(stdout.trim());
}

const seconds = async (fn: () => Promise<unknown>) => {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
};

/** A bare node:http server that writes each request body to a file, in its own process (the push's HTTP ceiling). */
async function startUploadServer(dir: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const code =
    `const http=require('node:http'),fs=require('node:fs');let n=0;` +
    `http.createServer((q,s)=>{const f=${JSON.stringify(dir)}+'/upload-'+(n++);q.pipe(fs.createWriteStream(f)).on('finish',()=>{fs.rmSync(f);s.end('ok')})})` +
    `.listen(${port},'127.0.0.1',()=>console.log('ready'))`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`upload server exited with ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/upload`, stop: () => child.kill('SIGTERM') };
}

/** A bare node:http static server for one file, in its own process (as the Flotilla server is). */
async function startStaticServer(file: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const code =
    `const http=require('node:http'),fs=require('node:fs');const f=${JSON.stringify(file)};const size=fs.statSync(f).size;` +
    `http.createServer((q,s)=>{s.writeHead(200,{'content-type':'application/octet-stream','content-length':size});fs.createReadStream(f,{highWaterMark:1<<20}).pipe(s)})` +
    `.listen(${port},'127.0.0.1',()=>console.log('ready'))`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (c) => reject(new Error(`static server exited with ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/layer`, stop: () => child.kill('SIGTERM') };
}

export async function measureRegistry(baseUrl: string, user: SeededUser, config: RegistryConfig): Promise<RegistryFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-registry-'));
  try {
    const api = new Api(baseUrl, user.token);
    const deviceType = firstRow(await api.json<{ d?: { id: number }[] }>('GET', `/v7/device_type?$filter=${encodeURIComponent(`slug eq 'raspberrypi4-64'`)}&$select=id`), 'device type');
    const fleet = await api.json<{ id: number }>('POST', '/v7/application', { app_name: 'bench-registry', organization: user.organizationId, is_for__device_type: deviceType.id });
    const release = await api.json<{ id: number }>('POST', '/v7/release', { belongs_to__application: fleet.id, commit: randomBytes(16).toString('hex'), status: 'running', source: 'cloud', composition: {} });
    const service = await api.json<{ id: number }>('POST', '/v7/service', { application: fleet.id, service_name: 'main' });
    const image = await api.json<{ id: number; is_stored_at__image_location: string }>('POST', '/v7/image', { is_a_build_of__service: service.id, status: 'running' });
    await api.json('POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
    const location = image.is_stored_at__image_location;
    const host = location.slice(0, location.indexOf('/'));
    const repo = location.slice(location.indexOf('/') + 1);
    const scope = new URLSearchParams({ service: host, scope: `repository:${repo}:pull,push` });
    const tokenRes = await fetch(`${baseUrl}/auth/v1/token?${scope}`, { headers: { authorization: `Basic ${Buffer.from(`${user.username}:${user.token}`).toString('base64')}` } });
    const { token } = (await tokenRes.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };

    const layer = join(dir, 'layer');
    progress(`registry (n): writing a ${config.layerBytes / 1024 / 1024} MB layer`);
    const digest = await writeRandomFile(layer, config.layerBytes);

    const cpTimes: number[] = [];
    const pushTimes: number[] = [];
    const bareTimes: number[] = [];
    const uploadServer = await startUploadServer(dir);
    for (let i = 0; i < config.repeats; i++) {
      bareTimes.push(await seconds(() => curlUpload(uploadServer.url, 'PUT', {}, layer)));
      const copy = join(dir, `copy-${i}`);
      cpTimes.push(await seconds(() => run('cp', [layer, copy])));
      await rm(copy);
      pushTimes.push(
        await seconds(async () => {
          // What docker and podman do: POST to start, one PATCH with the layer, PUT ?digest.
          const start = await http(`${baseUrl}/v2/${repo}/blobs/uploads/`, 'POST', auth);
          if (start.status !== 202) throw new Error(`upload start answered ${start.status}`);
          const upload = new URL(String(start.headers.location), baseUrl).toString();
          const patch = await curlUpload(upload, 'PATCH', { ...auth, 'content-type': 'application/octet-stream' }, layer);
          if (patch !== 202) throw new Error(`PATCH answered ${patch}`);
          const put = await http(`${upload}?digest=${digest}`, 'PUT', auth);
          if (put.status !== 201) throw new Error(`PUT answered ${put.status}`);
        }),
      );
    }

    uploadServer.stop();
    progress(`registry (o): ${config.pullers} concurrent pulls, Flotilla and a bare node:http static server`);
    const pullAll = (url: string, headers: Record<string, string>) =>
      seconds(async () => {
        const results = await Promise.all(Array.from({ length: config.pullers }, () => http(url, 'GET', headers)));
        for (const r of results) if (r.status !== 200 || r.bytes !== config.layerBytes) throw new Error(`a pull answered ${r.status} with ${r.bytes} bytes`);
      });
    const staticServer = await startStaticServer(layer);
    const baselineTimes: number[] = [];
    const pullTimes: number[] = [];
    try {
      for (let i = 0; i < config.repeats; i++) {
        baselineTimes.push(await pullAll(staticServer.url, {}));
        pullTimes.push(await pullAll(`${baseUrl}/v2/${repo}/blobs/${digest}`, auth));
      }
    } finally {
      staticServer.stop();
    }
    return {
      layerBytes: config.layerBytes,
      pullers: config.pullers,
      cpSeconds: median(cpTimes),
      bareUploadSeconds: median(bareTimes),
      pushSeconds: median(pushTimes),
      baselinePullSeconds: median(baselineTimes),
      pullSeconds: median(pullTimes),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mbps = (bytes: number, s: number) => bytes / 1024 / 1024 / s;

export function evaluateRegistry(f: Outcome<RegistryFigures>): Row[] {
  return [
    row('n', 'registry: push of one layer', f, (r) => {
      const pct = (r.cpSeconds / r.pushSeconds) * 100;
      return {
        value: `${fmt(mbps(r.layerBytes, r.pushSeconds), 0)} MB/s`,
        ratio: `${fmt(pct, 1)} % of cp`,
        target: `≥ ${REGISTRY_TARGETS.pushPercent} %`,
        pass: pct >= REGISTRY_TARGETS.pushPercent,
        note:
          `${fmt(r.layerBytes / 1024 / 1024, 0)} MB: push ${fmt(r.pushSeconds, 2)} s (POST, PATCH with curl, PUT ?digest, SHA-256 verified), cp ${fmt(r.cpSeconds, 2)} s (${fmt(mbps(r.layerBytes, r.cpSeconds), 0)} MB/s); ` +
          `a bare node:http server writing the same curl PUT to disk: ${fmt(r.bareUploadSeconds, 2)} s (push = ${fmt((r.bareUploadSeconds / r.pushSeconds) * 100, 1)} % of it)`,
      };
    }),
    row('o', 'registry: pull of one layer by concurrent devices', f, (r) => {
      const pct = (r.baselinePullSeconds / r.pullSeconds) * 100;
      const total = r.layerBytes * r.pullers;
      return {
        value: `${fmt(mbps(total, r.pullSeconds), 0)} MB/s`,
        ratio: `${fmt(pct, 1)} % of node:http`,
        target: `≥ ${REGISTRY_TARGETS.pullPercent} %`,
        pass: pct >= REGISTRY_TARGETS.pullPercent,
        note: `${r.pullers} pulls of ${fmt(r.layerBytes / 1024 / 1024, 0)} MB at once: ${fmt(r.pullSeconds, 2)} s; static server ${fmt(r.baselinePullSeconds, 2)} s (${fmt(mbps(total, r.baselinePullSeconds), 0)} MB/s)`,
      };
    }),
  ];
}
