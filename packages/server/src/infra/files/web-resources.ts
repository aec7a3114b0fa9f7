import type { AppContext } from '../app/context.js';
import type { Db } from '../db/db.js';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../errors.js';
import type { DataContext } from '../odata/permissions.js';
import { odataPatch } from '../odata/write.js';
import { odataRead } from '../odata/read.js';
import { resourceInfo } from '../odata/resources.js';
import { StoredWebResource, type WebResourceLinker } from '../odata/web-resource.js';
import type { FileStore } from './file-store.js';
import { sweepFileGarbage } from './garbage.js';
import { DOWNLOAD_LINK_SECONDS, UPLOAD_LINK_SECONDS, type LinkSigner } from './signed-links.js';

/**
 * Stored files of WebResource fields (release assets): the links the data API shows, and
 * balena's multipart upload actions, `POST /v7/<resource>(<id>)/beginUpload` and
 * `…/commitUpload` (pinejs' webresource multipart upload, as balena-sdk's
 * `release.asset.upload` drives it for files over 5 MiB):
 *
 *   beginUpload  {<field>: {filename, content_type, size, chunk_size}}
 *             →  {<field>: {uuid, uploadParts: [{url, chunkSize, partNumber}]}}
 *   PUT <url>    the part's bytes  →  ETag header
 *   commitUpload {uuid, providerCommitData: {Parts: [{PartNumber, ETag}]}}
 *             →  the field's new value {filename, content_type, size, href}
 *
 * Both actions need the caller's update permission on the row (checked through the data
 * layer); the part URLs are signed for one part of one upload and expire.
 */

/** Part sizes a client may ask for, and how many parts an upload may have. */
export const MIN_CHUNK_BYTES = 64 * 1024;
export const MAX_CHUNK_BYTES = 100 * 1024 * 1024;
export const MAX_UPLOAD_PARTS = 10_000;

export const FILE_ROUTE_PREFIX = '/files/v1';

export interface WebResourcesOptions {
  /** The app whose rules the writes run (a file field is written through the data API). */
  app: AppContext;
  db: Db;
  store: FileStore;
  signer: LinkSigner;
  /** Largest file one WebResource field may hold. */
  maxBytes: number;
  onError?: (err: unknown) => void;
}

const FIELD_TEXT_MAX = 255;

function text(value: unknown, name: string, max = FIELD_TEXT_MAX): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new BadRequestError(`'${name}' must be a string of 1 to ${max} characters`);
  return value;
}

function integer(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new BadRequestError(`'${name}' must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`);
  }
  return value;
}

export class WebResources {
  constructor(readonly opts: WebResourcesOptions) {}

  get store(): FileStore {
    return this.opts.store;
  }

  /** The `href` of a stored file for callers who reached the server at `origin`. */
  linker(origin: string): WebResourceLinker {
    return (key) => `${origin}${FILE_ROUTE_PREFIX}/${key}?${this.opts.signer.query(`file:${key}`, DOWNLOAD_LINK_SECONDS)}`;
  }

  partUrl(origin: string, uuid: string, partNumber: number): string {
    return `${origin}${FILE_ROUTE_PREFIX}/uploads/${uuid}/${partNumber}?${this.opts.signer.query(`part:${uuid}:${partNumber}`, UPLOAD_LINK_SECONDS)}`;
  }

  /** Removes files no row refers to any more (after a delete or an overwrite has committed). */
  async sweep(): Promise<void> {
    try {
      await sweepFileGarbage(this.opts.db, this.opts.store);
    } catch (err) {
      this.opts.onError?.(err);
    }
  }

  /** Files stored for a request whose write did not happen. */
  async discard(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.opts.store.remove(key).catch((err) => this.opts.onError?.(err));
  }

  /** The single WebResource field named in an action body (`{asset: {...}}`). */
  private fieldOf(resource: string, body: Record<string, unknown>): { field: string; value: Record<string, unknown> } {
    const info = resourceInfo(resource);
    const names = Object.keys(body);
    const field = names.length === 1 ? info.fields.get(names[0]!) : undefined;
    if (!field || field.type !== 'WebResource') throw new BadRequestError(`Name one file field of resource '${resource}'`);
    const value = body[field.name];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequestError(`'${field.name}' must be an object`);
    return { field: field.name, value: value as Record<string, unknown> };
  }

  /** 401 unless the caller may update the row; 404 when they cannot even see it. */
  private async assertMayUpdate(db: Db, ctx: DataContext, resource: string, id: number): Promise<void> {
    const writable = await odataPatch(this.opts.app, db, ctx, `/${resource}(${id})`, {});
    if (writable.length > 0) return;
    const visible = await odataRead(db, ctx, `/${resource}(${id})?$select=id`);
    throw visible.length > 0 ? new UnauthorizedError() : new NotFoundError(`${resource} not found`);
  }

  async beginUpload(db: Db, ctx: DataContext, resource: string, id: number, body: unknown, origin: string): Promise<unknown> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('The request body must be a JSON object');
    const { field, value } = this.fieldOf(resource, body as Record<string, unknown>);
    const filename = text(value.filename, 'filename');
    const contentType = text(value.content_type ?? 'application/octet-stream', 'content_type', 127);
    const size = integer(value.size, 'size', 1, this.opts.maxBytes);
    const chunkSize = integer(value.chunk_size, 'chunk_size', MIN_CHUNK_BYTES, MAX_CHUNK_BYTES);
    const parts = Math.ceil(size / chunkSize);
    if (parts > MAX_UPLOAD_PARTS) throw new BadRequestError(`An upload may have at most ${MAX_UPLOAD_PARTS} parts: use a larger chunk_size`);
    await this.assertMayUpdate(db, ctx, resource, id);
    const uuid = await this.opts.store.beginUpload({ target: `${resource}(${id}).${field}`, filename, contentType, size, chunkSize, parts });
    const uploadParts = Array.from({ length: parts }, (_, i) => ({
      url: this.partUrl(origin, uuid, i + 1),
      chunkSize: i + 1 < parts ? chunkSize : size - chunkSize * (parts - 1),
      partNumber: i + 1,
    }));
    return { [field]: { uuid, uploadParts } };
  }

  async commitUpload(db: Db, ctx: DataContext, resource: string, id: number, body: unknown, origin: string): Promise<unknown> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as { uuid?: unknown; providerCommitData?: { Parts?: unknown } };
    const uuid = text(b.uuid, 'uuid', 64);
    const list = b.providerCommitData?.Parts;
    if (!Array.isArray(list) || list.length > MAX_UPLOAD_PARTS) throw new BadRequestError(`'providerCommitData.Parts' must be a list of at most ${MAX_UPLOAD_PARTS} parts`);
    const parts = list.map((p: { PartNumber?: unknown; ETag?: unknown }) => ({
      partNumber: integer(p?.PartNumber, 'PartNumber', 1, MAX_UPLOAD_PARTS),
      etag: text(typeof p?.ETag === 'string' ? p.ETag.replace(/^"+|"+$/g, '') : p?.ETag, 'ETag', 64),
    }));
    const upload = await this.opts.store.pendingUpload(uuid);
    const field = upload?.target.startsWith(`${resource}(${id}).`) ? upload.target.slice(`${resource}(${id}).`.length) : undefined;
    if (!upload || !field) throw new BadRequestError('No such upload for this row');
    await this.assertMayUpdate(db, ctx, resource, id);
    const stored = await this.opts.store.commitUpload(uuid, parts);
    const value = { filename: upload.filename, content_type: upload.contentType, size: stored.size, key: stored.key };
    try {
      const changed = await odataPatch(this.opts.app, db, ctx, `/${resource}(${id})`, { [field]: new StoredWebResource(value) });
      if (changed.length === 0) throw new UnauthorizedError();
    } catch (err) {
      await this.discard([stored.key]);
      throw err;
    }
    // The file it replaces, if any.
    await this.sweep();
    return { filename: value.filename, content_type: value.content_type, size: value.size, href: this.linker(origin)(value.key) };
  }

  async cancelUpload(db: Db, ctx: DataContext, resource: string, id: number, body: unknown): Promise<void> {
    const uuid = text((body as { uuid?: unknown } | null)?.uuid, 'uuid', 64);
    const upload = await this.opts.store.pendingUpload(uuid);
    if (!upload?.target.startsWith(`${resource}(${id}).`)) throw new BadRequestError('No such upload for this row');
    await this.assertMayUpdate(db, ctx, resource, id);
    await this.opts.store.abortUpload(uuid);
  }
}
