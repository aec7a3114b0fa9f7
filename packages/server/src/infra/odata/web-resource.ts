import { randomBytes } from 'node:crypto';

/**
 * WebResource fields (balena's stored files, `FieldDef.type === 'WebResource'`). The column
 * holds `{filename, content_type, size, key}`, `key` naming the file in the file store. The
 * API shows `{filename, content_type, size, href}`: the database builds the object with a
 * placeholder in `href` that carries the key, and the read path swaps each placeholder for a
 * link the caller can fetch (a signed URL, see infra/files). The key itself never leaves the
 * server, and a client can only write such a field by uploading a file.
 */

/**
 * The placeholder's prefix. Random per process and never sent to a client, so no text a user
 * stored can pass for a placeholder (and so mint a link to another tenant's file).
 */
export const WEB_RESOURCE_MARK = `flotilla-web-resource-${randomBytes(16).toString('hex')}:`;
const PLACEHOLDER = new RegExp(`"${WEB_RESOURCE_MARK}([A-Za-z0-9_-]{1,128})"`, 'g');

/** What a WebResource column stores. */
export interface WebResourceValue {
  filename: string;
  content_type: string;
  size: number;
  key: string;
}

/**
 * A file the server has stored for a write (an upload parsed from multipart/form-data, a
 * committed multipart upload). Only such instances are accepted for a WebResource field: a
 * JSON body cannot make one, so nobody can point a row at a file by naming its key.
 */
export class StoredWebResource {
  constructor(readonly value: WebResourceValue) {}
}

/** Turns a stored key into the `href` the caller gets (JSON-encoded string, quotes included). */
export type WebResourceLinker = (key: string) => string;

/** The SQL that shows the WebResource column `c`: null, or the object with the href placeholder. */
export function webResourceSql(c: string): string {
  return (
    `CASE WHEN ${c} IS NULL THEN NULL ELSE json_build_object('filename', ${c}->>'filename', ` +
    `'content_type', ${c}->>'content_type', 'size', (${c}->>'size')::bigint, ` +
    `'href', '${WEB_RESOURCE_MARK}' || (${c}->>'key')) END`
  );
}

/** Swaps every href placeholder in a response text for a link (or null without a linker). */
export function linkWebResources(text: string, linker: WebResourceLinker | undefined): string {
  if (!text.includes(WEB_RESOURCE_MARK)) return text;
  return text.replace(PLACEHOLDER, (_m, key: string) => JSON.stringify(linker ? linker(key) : null));
}
