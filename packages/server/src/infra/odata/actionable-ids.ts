import type { DeviceOperation } from '@flotilla/model';
import type { Db } from '../db/db.js';
import { UnauthorizedError } from '../errors.js';
import type { DataContext } from './permissions.js';
import { compileAffectedIds, compileReadIds } from './query.js';
import { paramsFor, runStatement } from './sql.js';
import { parseUrl } from './url.js';
import { resourceInfo } from './resources.js';

/**
 * The ids of the rows a data-API URL (`/device?$filter=…`) selects on which the caller may
 * `action`: the rows a PATCH (update) or DELETE of that URL would touch, by the same compiled
 * rule (navigations named in the `$filter` checked against read). None when the caller has
 * no such rule at all. The statement locks the rows it selects (it serves PATCH), so it runs
 * in a transaction of its own that scopes the lock.
 */
export async function odataActionableIds(db: Db, ctx: DataContext, url: string, action: 'update' | 'delete'): Promise<number[]> {
  let stmt;
  try {
    stmt = compileAffectedIds(parseUrl(url), ctx.permissions, action);
  } catch (err) {
    if (err instanceof UnauthorizedError) return []; // no rule at all
    throw err;
  }
  const { rows } = await db.tx((tx) => runStatement<{ id: number }>(tx, stmt, paramsFor(stmt, ctx.actorId)));
  return rows.map((r) => r.id);
}

/**
 * The ids of the rows a data-API URL selects on which the caller holds `operation` (a device
 * operation right, spec 2 §6), by the same compiled rules, without locking: a check, not a
 * write. None when the caller has no such rule at all.
 */
export async function odataPermittedIds(db: Db, ctx: DataContext, url: string, operation: DeviceOperation): Promise<number[]> {
  let stmt;
  try {
    stmt = compileAffectedIds(parseUrl(url), ctx.permissions, operation, false);
  } catch (err) {
    if (err instanceof UnauthorizedError) return [];
    throw err;
  }
  const { rows } = await runStatement<{ id: number }>(db, stmt, paramsFor(stmt, ctx.actorId));
  return rows.map((r) => r.id);
}

/**
 * The ids of the rows a GET of `url` reads at its top level for the caller (the page it was
 * answered, or up to a page's maximum for `/$count`): what an audit trail records.
 */
export async function odataReadIds(db: Db, ctx: DataContext, url: string): Promise<number[]> {
  const stmt = compileReadIds(parseUrl(url), ctx.permissions);
  const { rows } = await runStatement<{ id: number }>(db, stmt, paramsFor(stmt, ctx.actorId));
  return rows.map((r) => r.id);
}

/** The resource a data-API URL is about, by its model name (synonyms resolved). */
export function odataResourceOf(url: string): string {
  return resourceInfo(parseUrl(url).tree.resource as string).name;
}
