import type { Db } from '../db/db.js';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import { Lru } from './cache.js';
import { withDbErrors } from './db-errors.js';
import { acceptedFields, hooksFor, runHooks, type HookArgs, type WriteMethod } from './hooks.js';
import { permissionsKey, rootCondition, type DataContext } from './permissions.js';
import { compileAffectedIds, compileEntityById } from './query.js';
import { resourceInfo, type ResourceInfo } from './resources.js';
import { finalize, ident, NEW_ROW_MARK, ParamBinder, paramsFor, runStatement, type Statement } from './sql.js';
import { parseUrl, type ParsedUrl } from './url.js';
import { toColumns, validateInput } from './validate.js';

/**
 * POST, PATCH/PUT and DELETE on the data API. Each runs in one transaction (joining the
 * caller's when `db` already is one): validate → hooks `before` → write → permission
 * check (POST) → hooks `after`.
 */

export interface PostResult {
  resource: string;
  id: number;
  /** The created row re-read as GET shows it (FKs as `{__id}`, no secret fields). */
  entity: Record<string, unknown>;
}

const affected = new Lru<Statement>(1_000);
const rowChecks = new Map<string, Statement>();
const entityById = new Map<string, Statement>();

function parseWriteUrl(url: string, method: string): { parsed: ParsedUrl; info: ResourceInfo } {
  const parsed = parseUrl(url);
  const info = resourceInfo(parsed.tree.resource as string);
  if (parsed.tree.count) throw new BadRequestError(`${method} is not allowed on /$count`);
  return { parsed, info };
}

/**
 * `SELECT t0.id FROM res WHERE id = ANY($1) AND <condition>` for rows just written: the
 * new row of a POST must satisfy the create rule, and rows a PATCH moved (changed a foreign
 * key of) must still satisfy the update rule, so nobody moves a row into a scope they may
 * not write (a fleet into another tenant's organization). Navigations in the condition
 * skip the checked row itself, so a row cannot vouch for itself.
 */
function rowCheck(ctx: DataContext, resource: string, action: 'create' | 'update'): Statement | undefined {
  const key = `${permissionsKey(ctx.permissions)}\u0000${resource}\u0000${action}`;
  let stmt = rowChecks.get(key);
  if (stmt === undefined) {
    const binder = new ParamBinder();
    const ids = binder.value(null, 'integer[]');
    const condition = rootCondition(ctx.permissions, resource, action, 't0', true);
    if (condition === undefined) return undefined;
    stmt = finalize(`SELECT t0."id" FROM ${ident(resource)} AS t0 WHERE t0."id" = ANY(${ids}) AND ${condition.replaceAll(NEW_ROW_MARK, 't0."id"')}`, binder);
    if (rowChecks.size >= 10_000) rowChecks.clear();
    rowChecks.set(key, stmt);
  }
  return stmt;
}

/** Throws 401 (rolling the transaction back) unless every row in `ids` passes `check`. */
async function assertRowsAllowed(db: Db, ctx: DataContext, check: Statement | undefined, ids: readonly number[]): Promise<void> {
  if (!check || ids.length === 0) return;
  const params = paramsFor(check, ctx.actorId).slice();
  params[0] = ids;
  const allowed = await withDbErrors(() => runStatement(db, check, params));
  if (allowed.rowCount !== new Set(ids).size) throw new UnauthorizedError();
}

async function readEntity(db: Db, resource: string, id: number): Promise<Record<string, unknown>> {
  let stmt = entityById.get(resource);
  if (stmt === undefined) {
    stmt = compileEntityById(resource);
    entityById.set(resource, stmt);
  }
  const { rows } = await runStatement<{ entity: Record<string, unknown> }>(db, stmt, [id]);
  if (!rows[0]) throw new Error(`created ${resource} ${id} not found`);
  return rows[0].entity;
}

/** Creates a row; 401 (nothing written) unless the new row satisfies the caller's create rule. */
export async function odataPost(db: Db, ctx: DataContext, url: string, body: unknown): Promise<PostResult> {
  const { parsed, info } = parseWriteUrl(url, 'POST');
  if (parsed.tree.key !== undefined) throw new BadRequestError('POST goes to the collection, not to a key');
  // Fails with 401 before anything is validated or written when the caller may never create.
  const check = rowCheck(ctx, info.name, 'create');
  const hooks = hooksFor(info.name, 'POST');
  const input = validateInput(info, body, 'POST', acceptedFields(hooks));
  return db.tx(async (tx) => {
    const args: HookArgs = { db: tx, actor: ctx, resource: info.name, method: 'POST', body: input, ids: [] };
    await runHooks(hooks, 'before', args);
    const { names, values } = toColumns(info, args.body, 'POST');
    const sql =
      names.length === 0
        ? `INSERT INTO ${ident(info.name)} DEFAULT VALUES RETURNING "id"`
        : `INSERT INTO ${ident(info.name)} (${names.map(ident).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING "id"`;
    const { rows } = await withDbErrors(() => tx.query<{ id: number }>(sql, values));
    const id = rows[0]!.id;
    await assertRowsAllowed(tx, ctx, check, [id]);
    await runHooks(hooks, 'after', { ...args, ids: [id] });
    return { resource: info.name, id, entity: await readEntity(tx, info.name, id) };
  });
}

async function affectedIds(db: Db, ctx: DataContext, url: string, parsed: ParsedUrl, action: 'update' | 'delete'): Promise<number[]> {
  const key = `${permissionsKey(ctx.permissions)}\u0000${action}\u0000${url}`;
  let stmt = affected.get(key);
  if (stmt === undefined) {
    stmt = compileAffectedIds(parsed, ctx.permissions, action);
    affected.set(key, stmt);
  }
  const s = stmt;
  const { rows } = await withDbErrors(() => runStatement<{ id: number }>(db, s, paramsFor(s, ctx.actorId)));
  return rows.map((r) => r.id);
}

/**
 * PATCH (and PUT) by key or `$filter`: only rows the caller's update rule allows are
 * changed; none matching is not an error.
 */
/** Returns the ids of the rows changed (those the caller's update rule allowed). */
export async function odataPatch(db: Db, ctx: DataContext, url: string, body: unknown): Promise<number[]> {
  const { parsed, info } = parseWriteUrl(url, 'PATCH');
  assertMayWrite(parsed, ctx, 'update');
  const hooks = hooksFor(info.name, 'PATCH');
  const input = validateInput(info, body, 'PATCH', acceptedFields(hooks));
  return db.tx(async (tx) => {
    const ids = await affectedIds(tx, ctx, url, parsed, 'update');
    const args: HookArgs = { db: tx, actor: ctx, resource: info.name, method: 'PATCH', body: input, ids };
    await runHooks(hooks, 'before', args);
    const { names, values } = toColumns(info, args.body, 'PATCH');
    if (ids.length > 0 && names.length > 0) {
      const set = names.map((n, i) => `${ident(n)} = $${i + 1}`).join(', ');
      const sql = `UPDATE ${ident(info.name)} SET ${set} WHERE "id" = ANY($${names.length + 1}::integer[])`;
      await withDbErrors(() => tx.query(sql, [...values, ids]));
      if (names.some((n) => info.fields.get(n)?.type === 'ForeignKey')) {
        await assertRowsAllowed(tx, ctx, rowCheck(ctx, info.name, 'update'), ids);
      }
    }
    await runHooks(hooks, 'after', args);
    return ids;
  });
}

/** DELETE by key or `$filter`: only rows the caller's delete rule allows. */
export async function odataDelete(db: Db, ctx: DataContext, url: string): Promise<void> {
  const { parsed, info } = parseWriteUrl(url, 'DELETE');
  assertMayWrite(parsed, ctx, 'delete');
  const hooks = hooksFor(info.name, 'DELETE');
  await db.tx(async (tx) => {
    const ids = await affectedIds(tx, ctx, url, parsed, 'delete');
    const args: HookArgs = { db: tx, actor: ctx, resource: info.name, method: 'DELETE', body: {}, ids };
    await runHooks(hooks, 'before', args);
    if (ids.length > 0) {
      await withDbErrors(() => tx.query(`DELETE FROM ${ident(info.name)} WHERE "id" = ANY($1::integer[])`, [ids]));
    }
    await runHooks(hooks, 'after', args);
  });
}

/** 401 before a transaction is opened when the caller may never do `action` here. */
function assertMayWrite(parsed: ParsedUrl, ctx: DataContext, action: 'update' | 'delete'): void {
  rootCondition(ctx.permissions, parsed.tree.resource as string, action, 't0');
}

export type { WriteMethod };
