import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import type { LinkSigner } from './signed-links.js';
import { FILE_ROUTE_PREFIX, MAX_UPLOAD_PARTS, type WebResources } from './web-resources.js';

/**
 * The links WebResources hands out: `GET /files/v1/<key>` (an asset's `href`) and
 * `PUT /files/v1/uploads/<uuid>/<part>` (a multipart upload's part URLs). Neither carries
 * the caller's token (balena-sdk sends none to these URLs, as to an object store's signed
 * URLs): the signature in the query, made for a caller the data layer let read (or write)
 * the row, is the authorisation, and it expires.
 */

const KEY = { type: 'string', pattern: '^[A-Za-z0-9]{20,64}$', maxLength: 64 } as const;
const SIGNED_QUERY = {
  type: 'object',
  required: ['expires', 'signature'],
  properties: { expires: { type: 'string', maxLength: 12 }, signature: { type: 'string', maxLength: 64 } },
} as const;

/** Header-safe `attachment; filename="…"; filename*=UTF-8''…`. */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export async function fileRoutes(app: FastifyInstance, opts: { files: WebResources; signer: LinkSigner }): Promise<void> {
  const { files, signer } = opts;

  app.get<{ Params: { key: string }; Querystring: { expires: string; signature: string } }>(
    `${FILE_ROUTE_PREFIX}/:key`,
    { schema: { params: { type: 'object', required: ['key'], properties: { key: KEY } }, querystring: SIGNED_QUERY } },
    async (request, reply) => {
      const { key } = request.params;
      if (!signer.verify(`file:${key}`, request.query.expires, request.query.signature)) throw new UnauthorizedError();
      const file = await files.store.open(key);
      if (!file) throw new NotFoundError('File not found');
      // Uploaded bytes are never rendered on this origin: a download, sandboxed.
      return reply
        .type(file.meta.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', attachment(file.meta.filename))
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'private, no-store')
        .send(file.stream);
    },
  );

  // Part bodies are raw bytes of any (or no) content type, streamed to the store and bounded there.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: { uuid: string; part: number }; Querystring: { expires: string; signature: string } }>(
      `${FILE_ROUTE_PREFIX}/uploads/:uuid/:part`,
      {
        schema: {
          params: { type: 'object', required: ['uuid', 'part'], properties: { uuid: KEY, part: { type: 'integer', minimum: 1, maximum: MAX_UPLOAD_PARTS } } },
          querystring: SIGNED_QUERY,
        },
        config: { ownInput: 'raw part bytes, streamed to the file store and bounded by the part size beginUpload announced' },
      },
      async (request, reply) => {
        const { uuid, part } = request.params;
        const body = request.body as Readable | undefined;
        if (!signer.verify(`part:${uuid}:${part}`, request.query.expires, request.query.signature)) {
          body?.resume();
          throw new UnauthorizedError();
        }
        const upload = await files.store.pendingUpload(uuid);
        if (!upload || part > upload.parts) {
          body?.resume();
          throw new NotFoundError('No such upload');
        }
        const expected = part < upload.parts ? upload.chunkSize : upload.size - upload.chunkSize * (upload.parts - 1);
        const etag = await files.store.putPart(uuid, part, body ?? Readable.from([]), expected);
        return reply.code(200).header('etag', `"${etag}"`).send();
      },
    );
  });

}
