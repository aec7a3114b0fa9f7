import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { RegistryConfig } from '../../src/infra/app/context.js';
import type { PoolDb } from '../../src/infra/db/db.js';
import { Mailer } from '../../src/infra/mail/mailer.js';
import { createTestDb, TEST_JWT_SECRET } from '../harness.js';
import { podman, TEST_BASE_IMAGE, TEST_LABEL, type TestEngine } from './engine.js';
import { freePort } from './net.js';

/**
 * Helpers of the registry tests: a server listening on a loopback port whose public URL is
 * that address (so image locations are `127.0.0.1:<port>/v2/<hex>`, pushable by a real
 * client), images created the way `balena deploy` creates them, and registry tokens.
 */

export interface RegistryServer {
  app: FastifyInstance;
  db: PoolDb;
  url: string;
  host: string;
  close(): Promise<void>;
}

export async function startRegistryServer(registry: RegistryConfig = {}, extra: { jobs?: { pollingIntervalSeconds: number }; port?: number } = {}): Promise<RegistryServer> {
  const { db, drop } = await createTestDb();
  const port = extra.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const mailer = new Mailer({ db, publicUrl: url });
  const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, mailer, registry, ...(extra.jobs ? { jobs: extra.jobs } : {}) });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    db,
    url,
    host: `127.0.0.1:${port}`,
    async close() {
      await app.close();
      mailer.close();
      await drop();
    },
  };
}

async function api<T>(app: FastifyInstance, token: string, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<T> {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

export interface CreatedImage {
  releaseId: number;
  imageId: number;
  /** `<host>/v2/<hex>` */
  location: string;
  /** `v2/<hex>` */
  repository: string;
}

/** A release (running) with one image of service `service`, as `balena deploy` writes them through /v7. */
export async function createReleaseImage(app: FastifyInstance, token: string, fleetId: number, service = 'main'): Promise<CreatedImage> {
  const release = await api<{ id: number }>(app, token, 'POST', '/v7/release', {
    belongs_to__application: fleetId,
    commit: Math.random().toString(16).slice(2).padEnd(16, '0'),
    status: 'running',
    source: 'cloud',
    composition: { version: '2.1', services: { [service]: { build: { context: '.' } } } },
  });
  const found = await app.inject({
    method: 'GET',
    url: `/v7/service?$select=id&$filter=application eq ${fleetId} and service_name eq '${service}'`,
    headers: { authorization: `Bearer ${token}` },
  });
  const serviceId = found.json<{ d: { id: number }[] }>().d[0]?.id ?? (await api<{ id: number }>(app, token, 'POST', '/v7/service', { application: fleetId, service_name: service })).id;
  const image = await api<{ id: number; is_stored_at__image_location: string }>(app, token, 'POST', '/v7/image', {
    is_a_build_of__service: serviceId,
    status: 'running',
  });
  await api(app, token, 'POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
  const location = image.is_stored_at__image_location;
  return { releaseId: release.id, imageId: image.id, location, repository: location.slice(location.indexOf('/') + 1) };
}

/** A registry token from `/auth/v1/token` for Basic `username:password` (none: anonymous). */
export async function registryToken(
  url: string,
  creds: { username: string; password: string } | null,
  scopes: string[],
  service = new URL(url).host,
): Promise<{ status: number; token: string; body: Record<string, unknown> }> {
  const q = new URLSearchParams();
  q.set('service', service);
  for (const s of scopes) q.append('scope', s);
  const res = await fetch(`${url}/auth/v1/token?${q}`, {
    headers: creds ? { authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` } : {},
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, token: String(body.token ?? ''), body };
}

/** The grants in a registry token (its payload, unverified). */
export function tokenAccess(token: string): { type: string; name: string; actions: string[] }[] {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { access: { type: string; name: string; actions: string[] }[] };
  return payload.access;
}

/** Builds a small labelled image FROM the offline base with one file of `content`; returns its local name. */
export async function buildTestImage(engine: Pick<TestEngine, 'env'>, testId: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-registry-img-'));
  try {
    await writeFile(join(dir, 'payload.txt'), content);
    await writeFile(join(dir, 'Dockerfile'), `FROM ${TEST_BASE_IMAGE}\nCOPY payload.txt /payload.txt\nCMD ["/bin/busybox", "cat", "/payload.txt"]\n`);
    const name = `localhost/flotilla-test/${testId}:${Math.random().toString(16).slice(2, 10)}`;
    await podman(engine, ['build', '-q', '--label', `${TEST_LABEL}=${testId}`, '-t', name, dir]);
    return name;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
