import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import { BadRequestError } from '../errors.js';
import { StoredWebResource } from '../odata/web-resource.js';
import type { FileStore } from './file-store.js';

/**
 * A data API write sent as multipart/form-data, as balena-sdk sends a body holding a File
 * (pinejs: `POST /v7/release_asset` with `release`, `asset_key` and the file `asset`). Text
 * parts become the body's fields; each file part is streamed into the file store (at most
 * `maxFileBytes`) and becomes a `StoredWebResource` the model check accepts for a
 * WebResource field. Everything is bounded: a few short fields, at most one file.
 */

export const MULTIPART_LIMITS = { fields: 20, fieldBytes: 64 * 1024, files: 1 } as const;

const FILENAME_MAX = 255;

/** A filename as sent, without path, control characters or unpaired surrogates, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '').slice(0, FILENAME_MAX);
  return clean === '' ? 'file' : clean;
}

function cleanType(type: string | undefined): string {
  const t = (type ?? '').trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/.test(t) ? t : 'application/octet-stream';
}

export interface MultipartBody {
  body: Record<string, unknown>;
  /** Keys of the files stored for this request (removed again when the write fails). */
  stored: string[];
}

export function parseMultipartBody(headers: IncomingHttpHeaders, payload: Readable, store: FileStore, maxFileBytes: number): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const body: Record<string, unknown> = {};
    const stored: string[] = [];
    const pending: Promise<void>[] = [];
    let failed: unknown;
    const fail = (err: unknown) => {
      failed ??= err;
    };
    let bb;
    try {
      bb = new Busboy({
        headers: headers as IncomingHttpHeaders & { 'content-type': string },
        limits: {
          fields: MULTIPART_LIMITS.fields,
          fieldSize: MULTIPART_LIMITS.fieldBytes,
          files: MULTIPART_LIMITS.files,
          parts: MULTIPART_LIMITS.fields + MULTIPART_LIMITS.files,
          fileSize: maxFileBytes + 1,
        },
      });
    } catch {
      reject(new BadRequestError('Invalid multipart/form-data body'));
      return;
    }
    bb.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) return fail(new BadRequestError(`The field '${name}' is too long`));
      if (name in body) return fail(new BadRequestError(`The field '${name}' is given twice`));
      body[name] = value;
    });
    bb.on('file', (name, stream, filename, _encoding, mimeType) => {
      if (failed !== undefined || name in body) {
        if (name in body) fail(new BadRequestError(`The field '${name}' is given twice`));
        stream.resume();
        return;
      }
      const meta = { filename: cleanFilename(filename), contentType: cleanType(mimeType) };
      body[name] = null;
      pending.push(
        store.put(stream, meta, maxFileBytes).then(
          ({ key, size }) => {
            stored.push(key);
            body[name] = new StoredWebResource({ filename: meta.filename, content_type: meta.contentType, size, key });
          },
          (err) => fail(err),
        ),
      );
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      bb.on(limit, () => fail(new BadRequestError('Too many parts in the multipart/form-data body')));
    }
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      void Promise.all(pending).then(async () => {
        if (failed === undefined) return resolve({ body, stored });
        await Promise.all(stored.map((k) => store.remove(k).catch(() => undefined)));
        reject(failed);
      });
    };
    bb.on('error', () => {
      fail(new BadRequestError('Invalid multipart/form-data body'));
      payload.resume();
      settle();
    });
    bb.on('finish', settle);
    payload.on('error', (err) => {
      fail(err);
      settle();
    });
    payload.pipe(bb);
  });
}
