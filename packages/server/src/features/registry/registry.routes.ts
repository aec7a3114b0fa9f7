import { createHash, randomUUID, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { pullableRepositories, subjectContext } from './access.js';
import { DIGEST, UploadTooLargeError, type BlobStore } from './blob-store.js';
import { OciError } from './oci-errors.js';
import * as repo from './registry.repository.js';
import type { Access, TokenClaims, TokenSigner } from './token.js';

/**
 * The OCI Distribution API (distribution-spec v1.1, the Docker Registry HTTP API V2) under
 * `/v2/`: blobs (HEAD/GET with a byte range, DELETE), uploads (monolithic POST, chunked
 * PATCH with resume, PUT to complete, DELETE to cancel, cross-repository mount), manifests
 * (Docker schema 2, OCI image manifest, OCI index and Docker manifest list), tags list and
 * catalog. Every request needs a bearer token from /auth/v1/token (token.routes.ts) whose
 * grants cover it.
 */

export const MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_MAX = 1000;

const IMAGE_MANIFEST_TYPES = new Set(['application/vnd.docker.distribution.manifest.v2+json', 'application/vnd.oci.image.manifest.v1+json']);
const INDEX_TYPES = new Set(['application/vnd.docker.distribution.manifest.list.v2+json', 'application/vnd.oci.image.index.v1+json']);

const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface RegistryRouteOptions {
  db: Db;
  store: BlobStore;
  signer: TokenSigner;
  /** `<public url>/auth/v1/token`. */
  realm: string;
  /** Largest blob one upload may make. */
  blobMaxBytes: number;
  /** Set when an external registry serves the images: /v2 then answers 404. */
  externalUrl?: string | undefined;
}

type Route =
  | { kind: 'base' }
  | { kind: 'catalog' }
  | { kind: 'tags'; name: string }
  | { kind: 'manifest'; name: string; reference: string }
  | { kind: 'uploads'; name: string }
  | { kind: 'upload'; name: string; uuid: string }
  | { kind: 'blob'; name: string; digest: string };

function parsePath(path: string): Route | null {
  const rest = path.slice('/v2/'.length);
  if (rest === '') return { kind: 'base' };
  if (rest === '_catalog') return { kind: 'catalog' };
  let m: RegExpExecArray | null;
  if ((m = /^(.+)\/tags\/list$/.exec(rest))) return { kind: 'tags', name: m[1]! };
  if ((m = /^(.+)\/manifests\/([^/]+)$/.exec(rest))) return { kind: 'manifest', name: m[1]!, reference: m[2]! };
  if ((m = /^(.+)\/blobs\/uploads\/?$/.exec(rest))) return { kind: 'uploads', name: m[1]! };
  if ((m = /^(.+)\/blobs\/uploads\/([^/]+)$/.exec(rest))) return { kind: 'upload', name: m[1]!, uuid: m[2]! };
  if ((m = /^(.+)\/blobs\/([^/]+)$/.exec(rest))) return { kind: 'blob', name: m[1]!, digest: m[2]! };
  return null;
}

const unknownPath = () => new OciError(404, 'UNSUPPORTED', 'no such registry endpoint');

/** The action a request on `route` needs. */
function neededAction(method: string, route: Route): string {
  if (method === 'GET' || method === 'HEAD') return route.kind === 'upload' ? 'push' : 'pull';
  if (method === 'DELETE') return route.kind === 'upload' ? 'push' : 'delete';
  return 'push';
}

function digestOrError(value: string | undefined, code: 'DIGEST_INVALID' = 'DIGEST_INVALID'): string {
  if (value === undefined || !DIGEST.test(value)) {
    throw new OciError(400, code, 'invalid digest: only sha256:<64 lowercase hex> is accepted', { digest: value ?? null });
  }
  return value;
}

function pageSize(query: Record<string, string | undefined>): number {
  if (query.n === undefined) return PAGE_MAX;
  if (!/^\d{1,6}$/.test(query.n)) throw new OciError(400, 'PAGINATION_NUMBER_INVALID', 'n must be a whole number', { n: query.n });
  return Math.min(Number(query.n), PAGE_MAX);
}

/** Reads a body of at most `max` bytes; null when it is longer. */
async function readLimited(body: Readable, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.resume();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

interface ParsedManifest {
  mediaType: string;
  blobs: string[];
  manifests: string[];
}

function parseManifest(content: Buffer, contentType: string | undefined): ParsedManifest {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(content.toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new OciError(400, 'MANIFEST_INVALID', 'the manifest is not valid JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new OciError(400, 'MANIFEST_INVALID', 'the manifest must be a JSON object');
  const declared = typeof doc.mediaType === 'string' ? doc.mediaType : undefined;
  const header = contentType?.split(';')[0]?.trim();
  const mediaType = declared ?? header ?? '';
  if (declared && header && header !== declared && header !== 'application/json') {
    throw new OciError(400, 'MANIFEST_INVALID', `the Content-Type ${header} differs from the manifest's mediaType ${declared}`);
  }
  if (doc.schemaVersion !== 2) throw new OciError(400, 'MANIFEST_INVALID', 'only schemaVersion 2 manifests are accepted (Docker schema 1 is not supported)');
  const descriptorDigest = (d: unknown, where: string): string => {
    const digest = (d as { digest?: unknown } | null)?.digest;
    if (typeof digest !== 'string' || !DIGEST.test(digest)) throw new OciError(400, 'MANIFEST_INVALID', `${where} needs a sha256 digest`, { digest: digest ?? null });
    return digest;
  };
  if (IMAGE_MANIFEST_TYPES.has(mediaType) || (mediaType === '' && 'config' in doc)) {
    if (!Array.isArray(doc.layers)) throw new OciError(400, 'MANIFEST_INVALID', 'an image manifest needs a layers array');
    const blobs = [descriptorDigest(doc.config, 'config')];
    for (const [i, layer] of (doc.layers as unknown[]).entries()) {
      // Foreign layers (with urls) are fetched from elsewhere and are not in this registry.
      const urls = (layer as { urls?: unknown } | null)?.urls;
      const digest = descriptorDigest(layer, `layers[${i}]`);
      if (!(Array.isArray(urls) && urls.length > 0)) blobs.push(digest);
    }
    return { mediaType: mediaType || 'application/vnd.oci.image.manifest.v1+json', blobs: [...new Set(blobs)], manifests: [] };
  }
  if (INDEX_TYPES.has(mediaType) || (mediaType === '' && 'manifests' in doc)) {
    if (!Array.isArray(doc.manifests)) throw new OciError(400, 'MANIFEST_INVALID', 'an index needs a manifests array');
    const manifests = (doc.manifests as unknown[]).map((m, i) => descriptorDigest(m, `manifests[${i}]`));
    return { mediaType: mediaType || 'application/vnd.oci.image.index.v1+json', blobs: [], manifests: [...new Set(manifests)] };
  }
  throw new OciError(400, 'MANIFEST_INVALID', `unsupported manifest media type ${mediaType || '(none)'}`);
}

/** Running digests of uploads this process received every byte of (else the file is hashed at the end). */
class RunningDigests {
  private readonly map = new Map<string, { hash: Hash; size: number }>();
  constructor(private readonly max = 1000) {}
  start(uuid: string): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(uuid, { hash: createHash('sha256'), size: 0 });
  }
  /** The hash to feed for bytes appended at `offset`, if it is current. */
  at(uuid: string, offset: number): Hash | undefined {
    const entry = this.map.get(uuid);
    if (entry && entry.size === offset) return entry.hash;
    this.map.delete(uuid);
    return undefined;
  }
  appended(uuid: string, size: number): void {
    const entry = this.map.get(uuid);
    if (entry) entry.size = size;
  }
  /** The digest if every one of `size` bytes went through the hash. */
  digest(uuid: string, size: number): string | undefined {
    const entry = this.map.get(uuid);
    this.map.delete(uuid);
    return entry && entry.size === size ? `sha256:${entry.hash.digest('hex')}` : undefined;
  }
  drop(uuid: string): void {
    this.map.delete(uuid);
  }
}

export async function registryRoutes(app: FastifyInstance, opts: RegistryRouteOptions): Promise<void> {
  const { db, store, signer, realm } = opts;
  const running = new RunningDigests();

  // Blob bodies are raw bytes of any (or no) content type: streamed to the store, bounded there.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const challenge = (scope: string | undefined, error?: string) =>
    `Bearer realm="${realm}",service="${signer.service}"${scope ? `,scope="${scope}"` : ''}${error ? `,error="${error}"` : ''}`;

  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: unknown }).statusCode;
    const oci =
      error instanceof OciError
        ? error
        : error instanceof UploadTooLargeError
          ? new OciError(413, 'SIZE_INVALID', error.message)
          : error instanceof URIError
            ? new OciError(400, 'NAME_INVALID', 'the path is not valid percent-encoding')
            : typeof status === 'number' && status >= 400 && status < 500
              ? new OciError(status, status === 413 ? 'SIZE_INVALID' : 'UNSUPPORTED', error instanceof Error ? error.message : 'bad request')
              : null;
    if (!oci) {
      request.log.error({ err: error }, 'registry error');
      return reply.code(500).type('application/json').send(JSON.stringify({ errors: [{ code: 'UNKNOWN', message: `internal error (request ${request.id})`, detail: null }] }));
    }
    reply.headers(oci.headers);
    return reply.code(oci.statusCode).type('application/json').send(oci.body());
  });

  async function claimsOf(request: FastifyRequest): Promise<TokenClaims | null> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    return m ? signer.verify(m[1]!) : null;
  }

  function requireGrant(claims: TokenClaims | null, access: Access): void {
    // A push is challenged for pull and push, as Distribution does (clients ask for both).
    const challenged = access.actions.includes('push') ? ['pull', 'push'] : access.actions;
    const scope = `${access.type}:${access.name}:${challenged.join(',')}`;
    if (!claims) throw new OciError(401, 'UNAUTHORIZED', 'authentication required', [access], { 'www-authenticate': challenge(scope) });
    const held = claims.access.find((a) => a.type === access.type && a.name === access.name);
    const missing = access.actions.filter((a) => !(held?.actions.includes(a) || held?.actions.includes('*')));
    if (missing.length > 0) {
      // Distribution answers a token without the grant as a challenge with insufficient_scope.
      throw new OciError(401, 'DENIED', 'requested access to the resource is denied', [access], { 'www-authenticate': challenge(scope, 'insufficient_scope') });
    }
  }

  const held = (claims: TokenClaims | null, name: string, action: string) =>
    claims?.access.some((a) => a.type === 'repository' && a.name === name && (a.actions.includes(action) || a.actions.includes('*'))) ?? false;

  async function repository(name: string, create: boolean): Promise<number> {
    const id = create ? await repo.ensureRepository(db, name) : await repo.findRepository(db, name);
    if (id === null) throw new OciError(404, 'NAME_UNKNOWN', 'repository name not known to registry', { name });
    return id;
  }

  const uploadHeaders = (reply: FastifyReply, name: string, uuid: string, size: number) =>
    reply
      .header('location', `/v2/${name}/blobs/uploads/${uuid}`)
      .header('docker-upload-uuid', uuid)
      .header('range', `0-${Math.max(0, size - 1)}`)
      .header('content-length', '0');

  /** Appends the request body (if any) to an upload. */
  async function append(request: FastifyRequest, uuid: string, offset: number): Promise<number> {
    const body = request.body as Readable | undefined;
    if (!body) return offset;
    // A declared length past the limit is refused before a byte is read (the rest is discarded).
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && offset + declared > opts.blobMaxBytes) {
      throw new OciError(413, 'SIZE_INVALID', `the blob would be larger than the limit of ${opts.blobMaxBytes} bytes`, { limit: opts.blobMaxBytes });
    }
    const size = await store.appendUpload(uuid, body, opts.blobMaxBytes, running.at(uuid, offset));
    running.appended(uuid, size);
    return size;
  }

  /** Verifies and stores a finished upload; on a wrong digest nothing is kept. */
  async function complete(repository: number, uuid: string, size: number, expected: string): Promise<void> {
    const actual = running.digest(uuid, size) ?? (await store.digestUpload(uuid));
    if (actual !== expected) {
      await repo.deleteUpload(db, uuid);
      await store.removeUpload(uuid);
      throw new OciError(400, 'DIGEST_INVALID', 'the uploaded content does not match the digest', { expected, actual });
    }
    await repo.commitBlob(db, repository, uuid, expected, size, () => store.commitUpload(uuid, expected));
    await store.removeUpload(uuid);
  }

  async function begin(repository: number): Promise<string> {
    const uuid = randomUUID();
    await store.beginUpload(uuid);
    await repo.createUpload(db, repository, uuid);
    running.start(uuid);
    return uuid;
  }

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/v2/*',
    exposeHeadRoute: false,
    config: {
      ownInput: 'the registry parses its own path (repository names have slashes) and streams raw bodies',
      handlesAuthError: true,
      compress: false,
      // Pushing or deleting a manifest is recorded against the image stored there (the handler
      // names it); blob uploads and reads are not actions on any row (docs/audit-log.md).
      audit: { action: 'registry.manifest' },
    },
    handler: async (request, reply) => {
      reply.header('docker-distribution-api-version', 'registry/2.0');
      const [path, search = ''] = request.url.split('?', 2) as [string, string?];
      if (opts.externalUrl !== undefined) {
        throw new OciError(404, 'UNSUPPORTED', `this server's registry is off: images are stored at ${opts.externalUrl}`);
      }
      const query = Object.fromEntries(new URLSearchParams(search)) as Record<string, string | undefined>;
      const route = parsePath(decodeURIComponent(path));
      if (!route) throw unknownPath();
      const method = request.method;
      const claims = await claimsOf(request);

      if (route.kind === 'base') {
        if (method !== 'GET' && method !== 'HEAD') throw unknownPath();
        if (!claims) throw new OciError(401, 'UNAUTHORIZED', 'authentication required', null, { 'www-authenticate': challenge(undefined) });
        return reply.type('application/json').send('{}');
      }

      if (route.kind === 'catalog') {
        if (method !== 'GET') throw unknownPath();
        requireGrant(claims, { type: 'registry', name: 'catalog', actions: ['*'] });
        const n = pageSize(query);
        const subject = claims!.flotilla;
        const names: string[] = [];
        let last = query.last ?? '';
        // Only repositories the token's subject may pull, page by page.
        while (subject && names.length < n) {
          const candidates = await repo.listRepositories(db, last, 100);
          if (candidates.length === 0) break;
          const allowed = await pullableRepositories(db, subjectContext(subject), candidates);
          for (const c of candidates) if (allowed.has(c) && names.length < n) names.push(c);
          last = candidates[candidates.length - 1]!;
          if (candidates.length < 100) break;
        }
        if (names.length === n && n > 0) reply.header('link', `</v2/_catalog?n=${n}&last=${encodeURIComponent(names[n - 1]!)}>; rel="next"`);
        return reply.type('application/json').send(JSON.stringify({ repositories: names }));
      }

      const name = route.name;
      if (name.length > 255 || !NAME.test(name)) throw new OciError(400, 'NAME_INVALID', 'invalid repository name', { name });
      const action = neededAction(method, route);
      requireGrant(claims, { type: 'repository', name, actions: [action] });

      switch (route.kind) {
        case 'tags': {
          if (method !== 'GET') throw unknownPath();
          const id = await repository(name, false);
          const n = pageSize(query);
          const tags = await repo.listTags(db, id, query.last ?? '', n);
          if (tags.length === n && n > 0) reply.header('link', `</v2/${name}/tags/list?n=${n}&last=${encodeURIComponent(tags[n - 1]!)}>; rel="next"`);
          return reply.type('application/json').send(JSON.stringify({ name, tags }));
        }

        case 'manifest': {
          const reference = route.reference;
          const byDigest = reference.includes(':');
          if (byDigest) digestOrError(reference);
          else if (!TAG.test(reference)) throw new OciError(400, 'TAG_INVALID', 'invalid tag', { tag: reference });
          if (method === 'GET' || method === 'HEAD') {
            const id = await repository(name, false);
            const m = await repo.findManifest(db, id, reference);
            if (!m) throw new OciError(404, 'MANIFEST_UNKNOWN', 'manifest unknown', { name, reference });
            reply.type(m.media_type).header('docker-content-digest', m.digest).header('etag', `"${m.digest}"`);
            if (method === 'HEAD') return reply.header('content-length', String(m.content.length)).send();
            return reply.send(m.content);
          }
          if (method === 'DELETE') {
            const id = await repository(name, false);
            if (!(await repo.deleteManifest(db, id, reference))) throw new OciError(404, 'MANIFEST_UNKNOWN', 'manifest unknown', { name, reference });
            request.auditTargets = [{ resource: 'image', ids: await repo.imagesStoredIn(db, name) }];
            return reply.code(202).header('content-length', '0').send();
          }
          if (method !== 'PUT') throw unknownPath();
          const body = request.body as Readable | undefined;
          const content = body ? await readLimited(body, MANIFEST_MAX_BYTES) : Buffer.alloc(0);
          if (content === null) throw new OciError(413, 'SIZE_INVALID', `the manifest is larger than ${MANIFEST_MAX_BYTES} bytes`, { limit: MANIFEST_MAX_BYTES });
          const parsed = parseManifest(content, request.headers['content-type']);
          const digest = `sha256:${createHash('sha256').update(content).digest('hex')}`;
          if (byDigest && reference !== digest) throw new OciError(400, 'DIGEST_INVALID', 'the manifest does not match the digest in the URL', { expected: reference, actual: digest });
          const id = await repository(name, true);
          const [blobs, manifests] = await Promise.all([repo.linkedBlobs(db, id, parsed.blobs), repo.storedManifests(db, id, parsed.manifests)]);
          const missing = [...parsed.blobs.filter((d) => !blobs.has(d)), ...parsed.manifests.filter((d) => !manifests.has(d))];
          if (missing.length > 0) {
            throw new OciError(400, 'MANIFEST_BLOB_UNKNOWN', 'the manifest refers to blobs this repository does not have', { digests: missing });
          }
          await repo.putManifest(db, id, { digest, mediaType: parsed.mediaType, content, blobs: parsed.blobs, manifests: parsed.manifests }, byDigest ? null : reference);
          request.auditTargets = [{ resource: 'image', ids: await repo.imagesStoredIn(db, name) }];
          return reply.code(201).header('location', `/v2/${name}/manifests/${digest}`).header('docker-content-digest', digest).header('content-length', '0').send();
        }

        case 'blob': {
          const digest = digestOrError(route.digest);
          if (method === 'DELETE') {
            const id = await repository(name, false);
            if (!(await repo.unlinkBlob(db, id, digest))) throw new OciError(404, 'BLOB_UNKNOWN', 'blob unknown to registry', { digest });
            return reply.code(202).header('content-length', '0').send();
          }
          if (method !== 'GET' && method !== 'HEAD') throw unknownPath();
          const id = await repository(name, false);
          const size = await repo.linkedBlob(db, id, digest);
          if (size === null || (await store.blobSize(digest)) === null) throw new OciError(404, 'BLOB_UNKNOWN', 'blob unknown to registry', { digest });
          reply.type('application/octet-stream').header('docker-content-digest', digest).header('etag', `"${digest}"`).header('accept-ranges', 'bytes');
          const range = request.headers.range;
          if (range !== undefined && method === 'GET') {
            const m = /^bytes=(\d+)-(\d*)$/.exec(range);
            const start = m ? Number(m[1]) : NaN;
            const end = m && m[2] !== '' ? Math.min(Number(m[2]), size - 1) : size - 1;
            if (!m || start > end || start >= size) {
              throw new OciError(416, 'RANGE_INVALID', 'invalid range', { range }, { 'content-range': `bytes */${size}` });
            }
            return reply
              .code(206)
              .header('content-range', `bytes ${start}-${end}/${size}`)
              .header('content-length', String(end - start + 1))
              .send(store.openBlob(digest, { start, end }));
          }
          reply.header('content-length', String(size));
          if (method === 'HEAD') return reply.send();
          return reply.send(store.openBlob(digest));
        }

        case 'uploads': {
          if (method !== 'POST') throw unknownPath();
          const id = await repository(name, true);
          if (query.mount !== undefined) {
            const digest = digestOrError(query.mount);
            const from = query.from;
            // A mount needs pull on the source; otherwise it is an ordinary upload (202).
            if (from !== undefined && NAME.test(from) && held(claims, from, 'pull')) {
              const size = await repo.mountBlob(db, from, id, digest);
              if (size !== null) {
                return reply.code(201).header('location', `/v2/${name}/blobs/${digest}`).header('docker-content-digest', digest).header('content-length', '0').send();
              }
            }
          }
          const uuid = await begin(id);
          if (query.digest !== undefined) {
            const digest = digestOrError(query.digest);
            try {
              const size = await append(request, uuid, 0);
              await complete(id, uuid, size, digest);
            } catch (err) {
              await repo.deleteUpload(db, uuid);
              await store.removeUpload(uuid);
              running.drop(uuid);
              throw err;
            }
            return reply.code(201).header('location', `/v2/${name}/blobs/${digest}`).header('docker-content-digest', digest).header('content-length', '0').send();
          }
          return uploadHeaders(reply.code(202), name, uuid, 0).send();
        }

        case 'upload': {
          const uuid = route.uuid;
          const id = await repository(name, false).catch(() => null);
          if (!UUID.test(uuid) || id === null || !(await repo.uploadExists(db, id, uuid))) {
            throw new OciError(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry', { uuid });
          }
          const current = (await store.uploadSize(uuid)) ?? 0;
          if (method === 'GET') return uploadHeaders(reply.code(204), name, uuid, current).send();
          if (method === 'DELETE') {
            await repo.deleteUpload(db, uuid);
            await store.removeUpload(uuid);
            running.drop(uuid);
            return reply.code(204).send();
          }
          if (method === 'PATCH') {
            const contentRange = request.headers['content-range'];
            if (contentRange !== undefined) {
              const m = /^(?:bytes[ =])?(\d+)-(\d+)$/.exec(contentRange);
              if (!m || Number(m[1]) !== current || Number(m[2]) < Number(m[1])) {
                (request.body as Readable | undefined)?.resume();
                throw new OciError(416, 'BLOB_UPLOAD_INVALID', `the chunk must start at byte ${current}`, { range: contentRange }, {
                  range: `0-${Math.max(0, current - 1)}`,
                  location: `/v2/${name}/blobs/uploads/${uuid}`,
                  'docker-upload-uuid': uuid,
                });
              }
            }
            const size = await append(request, uuid, current);
            return uploadHeaders(reply.code(202), name, uuid, size).send();
          }
          if (method === 'PUT') {
            const digest = digestOrError(query.digest);
            const size = await append(request, uuid, current);
            await complete(id, uuid, size, digest);
            return reply.code(201).header('location', `/v2/${name}/blobs/${digest}`).header('docker-content-digest', digest).header('content-length', '0').send();
          }
          throw unknownPath();
        }
      }
    },
  });
}
