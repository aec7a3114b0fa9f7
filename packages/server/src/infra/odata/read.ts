import type { Db } from '../db/db.js';
import { Lru } from './cache.js';
import { BadRequestError } from '../errors.js';
import { withDbErrors } from './db-errors.js';
import { MAX_RESPONSE_BYTES } from './limits.js';
import { permissionsKey, type Access, type DataContext } from './permissions.js';
import { compileGet, type CompiledGet } from './query.js';
import { paramsFor, runStatement } from './sql.js';
import { parseUrl } from './url.js';
import { linkWebResources, type WebResourceLinker } from './web-resource.js';

/**
 * GET on the data API. The compiled statement for a URL is cached per permission set
 * (the actor id is a parameter, not part of the SQL), so a repeated request costs a Map
 * lookup and one query.
 */

const statements = new Lru<CompiledGet>(2_000);

export function accessKey(access: Access): string {
  return access === 'root' ? 'root' : permissionsKey(access);
}

function compiledGet(url: string, access: Access): CompiledGet {
  const key = `${accessKey(access)}\u0000${url}`;
  let stmt = statements.get(key);
  if (stmt === undefined) {
    stmt = compileGet(parseUrl(url), access);
    statements.set(key, stmt);
  }
  return stmt;
}

/**
 * Runs a GET (`url` relative to the API root, e.g. `/application?$top=5`) and returns the
 * response body text: `{"d":[…]}`, or `{"d":N}` for `/$count`.
 */
export async function odataGet(db: Db, ctx: DataContext, url: string, links?: WebResourceLinker): Promise<string> {
  const stmt = compiledGet(url, ctx.permissions);
  const { rows } = await withDbErrors(() => runStatement<{ d: string | number | null; n?: number }>(db, stmt, paramsFor(stmt, ctx.actorId)));
  const row = rows[0];
  if (row !== undefined && row.d === null && row.n !== undefined) throw new ResponseTooLargeError(row.n);
  // Stored files (WebResource fields) get their links here; without a linker, href is null.
  const d = row?.d ?? (stmt.kind === 'count' ? 0 : '[]');
  return `{"d":${stmt.webResources && typeof d === 'string' ? linkWebResources(d, links) : d}}`;
}

const MB = 1024 * 1024;

/** A GET whose JSON would exceed MAX_RESPONSE_BYTES: a 400 telling the caller how to ask for less. */
export class ResponseTooLargeError extends BadRequestError {
  constructor(bytes: number) {
    super(
      `The response would be ${Math.ceil(bytes / MB)} MB, more than the limit of ${MAX_RESPONSE_BYTES / MB} MB: ` +
        'ask for fewer rows ($top, $filter), fields ($select) or expanded rows ($expand with $top or $select)',
    );
  }
}

/** The rows of a GET as objects, for services that read through the permission-checked data layer. */
export async function odataRead<T = Record<string, unknown>>(db: Db, ctx: DataContext, url: string): Promise<T[]> {
  const body = JSON.parse(await odataGet(db, ctx, url)) as { d: T[] | number };
  if (!Array.isArray(body.d)) throw new Error(`odataRead needs a collection URL, got a count: ${url}`);
  return body.d;
}

/** `/$count` as a number. */
export async function odataCount(db: Db, ctx: DataContext, url: string): Promise<number> {
  const body = JSON.parse(await odataGet(db, ctx, url)) as { d: unknown };
  if (typeof body.d !== 'number') throw new Error(`odataCount needs a /$count URL: ${url}`);
  return body.d;
}

/** Drops compiled statements (tests; a model change at run time). */
export function clearStatementCache(): void {
  statements.clear();
}
