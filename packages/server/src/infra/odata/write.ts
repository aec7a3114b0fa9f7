import type { Db } from '../db/db.js';
import { SQL_TYPES } from '../db/schema.js';
import { BadRequestError, UnauthorizedError } from '../errors.js';
import { Lru } from './cache.js';
import { withDbErrors } from './db-errors.js';
import { acceptedFields, runHooks, runWriteGuards, type HookArgs, type RuleHost, type WriteMethod, type WriteOrigin } from './hooks.js';
import { conditionAt, permissionCondition, permissionsKey, rootCondition, type DataContext } from './permissions.js';
import { compileAffectedIds, compileEntityById } from './query.js';
import { resourceInfo, type ResourceInfo } from './resources.js';
import { finalize, ident, NEW_ROW_MARK, ParamBinder, paramsFor, paramsWith, runStatement, type Statement } from './sql.js';
import { parseUrl, type ParsedUrl } from './url.js';
import { toColumns, validateInput, type Body } from './validate.js';

type ReferenceMessages = Pick<RuleHost<unknown>['rules'], 'referenceMessage'>;

/**
 * POST, PATCH/PUT and DELETE on the data API. Each runs in one transaction (joining the
 * caller's when `db` already is one): validate → hooks `before` → default references (POST)
 * → write → permission check (POST) → hooks `after`. The hooks are those of `app.rules`
 * (the app's own registry), and each gets `app`.
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
const referenceChecks = new Map<string, Statement | null>();
const createPrechecks = new Map<string, Statement | null>();

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

/** Throws 401 (rolling the transaction back), or a rule's 400 `refusal`, unless every row in `ids` passes `check`. */
async function assertRowsAllowed(db: Db, ctx: DataContext, check: Statement | undefined, ids: readonly number[], refusal?: string): Promise<void> {
  if (!check || ids.length === 0) return;
  const params = paramsWith(check, ctx.actorId, [ids]);
  const allowed = await withDbErrors(() => runStatement(db, check, params));
  if (allowed.rowCount !== new Set(ids).size) throw refusal === undefined ? new UnauthorizedError() : new BadRequestError(refusal);
}

/**
 * `SELECT t0.id FROM target WHERE id = ANY($1) AND <read condition>`: the rows of `target`
 * the caller may read among those a write refers to. Undefined when every row of `target`
 * is readable by this caller (reference data): then a missing row tells nothing and stays
 * the database's 409.
 */
function referenceCheck(ctx: DataContext, target: string): Statement | undefined {
  const key = `${permissionsKey(ctx.permissions)}\u0000${target}`;
  let stmt = referenceChecks.get(key);
  if (stmt === undefined) {
    const c = permissionCondition(ctx.permissions, target, 'read');
    if (c === true) {
      stmt = null;
    } else {
      const binder = new ParamBinder();
      const ids = binder.value(null, 'integer[]');
      stmt = finalize(`SELECT t0."id" FROM ${ident(target)} AS t0 WHERE t0."id" = ANY(${ids}) AND ${c === false ? 'FALSE' : conditionAt(c, 't0')}`, binder);
    }
    if (referenceChecks.size >= 10_000) referenceChecks.clear();
    referenceChecks.set(key, stmt);
  }
  return stmt ?? undefined;
}

/**
 * Every foreign key the caller writes (POST or PATCH, by id or by filter, any resource) must
 * name a row the caller may read: a row of another tenant and a row that does not exist both
 * get 401 before anything is written (no hook, no insert), so a write can neither link to
 * nor probe for rows the caller cannot see. A field whose rule registered a message of its own
 * gets that 400 instead (the same for a missing row, another tenant's and a readable row the
 * rule refuses). Values set by hooks are the rules' own.
 */
async function assertReferencesReadable(db: Db, ctx: DataContext, info: ResourceInfo, input: Body, rules: ReferenceMessages): Promise<void> {
  // By target and the rule's own refusal (RuleRegistry.registerReferenceMessage), if any.
  const byTarget = new Map<string, { target: string; refusal: string | undefined; ids: number[] }>();
  for (const [name, value] of Object.entries(input)) {
    const f = info.fields.get(name);
    if (f?.type !== 'ForeignKey' || f.references === undefined || typeof value !== 'number') continue;
    const refusal = rules.referenceMessage(info.name, name);
    const key = `${f.references}\u0000${refusal ?? ''}`;
    const entry = byTarget.get(key) ?? { target: f.references, refusal, ids: [] };
    entry.ids.push(value);
    byTarget.set(key, entry);
  }
  // The plain 401s first: a rule's message never answers for a field the caller may not name.
  const checks = [...byTarget.values()].sort((a, b) => Number(a.refusal !== undefined) - Number(b.refusal !== undefined));
  for (const { target, refusal, ids } of checks) await assertRowsAllowed(db, ctx, referenceCheck(ctx, target), ids, refusal);
}

/**
 * The create rule evaluated on the row about to be inserted, before the INSERT: `SELECT 1
 * FROM (SELECT <values> AS cols…) t0 WHERE <create condition>`, columns not given taking
 * their model default. A refused POST thus never reaches a unique or foreign key
 * constraint, so 409-or-401 cannot tell a stranger whether another tenant's fleet has a
 * variable of some name. The check after the insert stays (it sees database defaults).
 */
function createPrecheck(ctx: DataContext, info: ResourceInfo, names: readonly string[]): Statement | undefined {
  const key = `${permissionsKey(ctx.permissions)}\u0000${info.name}\u0000${names.join(',')}`;
  let stmt = createPrechecks.get(key);
  if (stmt === undefined) {
    const condition = rootCondition(ctx.permissions, info.name, 'create', 't0', true);
    if (condition === undefined) {
      stmt = null;
    } else {
      const binder = new ParamBinder();
      const given = new Map<string, string>();
      for (const n of names) given.set(n, binder.value(null, SQL_TYPES[info.columns.get(n)!.type]));
      const cols = info.def.fields.filter((f) => f.computed === undefined).map((f) => {
        const type = SQL_TYPES[f.type];
        const value = given.get(f.name) ?? (f.default !== undefined && f.type !== 'Serial' ? `(${f.default})::${type}` : `NULL::${type}`);
        return `${value} AS ${ident(f.name)}`;
      });
      // No row exists yet, so navigations back into this resource have nothing to skip.
      stmt = finalize(`SELECT 1 FROM (SELECT ${cols.join(', ')}) AS t0 WHERE ${condition.replaceAll(NEW_ROW_MARK, '0')}`, binder);
    }
    if (createPrechecks.size >= 10_000) createPrechecks.clear();
    createPrechecks.set(key, stmt);
  }
  return stmt ?? undefined;
}

async function assertMayCreate(db: Db, ctx: DataContext, info: ResourceInfo, names: readonly string[], values: readonly unknown[]): Promise<void> {
  const check = createPrecheck(ctx, info, names);
  if (!check) return;
  const params = paramsWith(check, ctx.actorId, values);
  const { rowCount } = await withDbErrors(() => runStatement(db, check, params));
  if (!rowCount) throw new UnauthorizedError();
}

/**
 * Fields a POST left out that the model gives a `defaultReference` (balena's default roles)
 * get the id of the row that alternate key names, after the `before` hooks (which may set
 * the field from something else the client sent, e.g. `roleName`).
 */
async function fillDefaultReferences(db: Db, info: ResourceInfo, body: Body): Promise<void> {
  for (const f of info.def.fields) {
    if (f.defaultReference === undefined || f.references === undefined) continue;
    if (body[f.name] !== undefined && body[f.name] !== null) continue;
    const key = Object.entries(f.defaultReference);
    const where = key.map(([column], i) => `${ident(column)} = $${i + 1}`).join(' AND ');
    const { rows } = await db.query<{ id: number }>(`SELECT "id" FROM ${ident(f.references)} WHERE ${where}`, key.map(([, value]) => value));
    if (rows.length !== 1) throw new Error(`${info.name}.${f.name}: no single default ${f.references} row ${JSON.stringify(f.defaultReference)}`);
    body[f.name] = rows[0]!.id;
  }
}

async function readEntity(db: Db, resource: string, id: number): Promise<Record<string, unknown>> {
  let stmt = entityById.get(resource);
  if (stmt === undefined) {
    stmt = compileEntityById(resource);
    entityById.set(resource, stmt);
  }
  const { rows } = await runStatement<{ entity: Record<string, unknown> }>(db, stmt, paramsWith(stmt, null, [id]));
  if (!rows[0]) throw new Error(`created ${resource} ${id} not found`);
  return rows[0].entity;
}

/**
 * Creates a row; 401 (nothing written) unless the new row satisfies the caller's create rule.
 * `origin` (the HTTP route's request): the write is recorded in the audit log, in its
 * transaction; writes a rule or a custom route makes on its own are not (theirs is the action).
 */
export async function odataPost<A extends RuleHost<A>>(app: A, db: Db, ctx: DataContext, url: string, body: unknown, origin?: WriteOrigin): Promise<PostResult> {
  const { parsed, info } = parseWriteUrl(url, 'POST');
  if (parsed.tree.key !== undefined) throw new BadRequestError('POST goes to the collection, not to a key');
  // Fails with 401 before anything is validated or written when the caller may never create.
  const check = rowCheck(ctx, info.name, 'create');
  const hooks = app.rules.hooksFor(info.name, 'POST');
  const input = validateInput(info, body, 'POST', acceptedFields(hooks));
  return db.tx(async (tx) => {
    await assertReferencesReadable(tx, ctx, info, input, app.rules);
    const args: HookArgs<A> = { tx, app, actor: ctx, resource: info.name, method: 'POST', body: input, ids: [] };
    await runWriteGuards(app.rules.writeGuards(), args);
    await runHooks(hooks, 'before', args);
    await fillDefaultReferences(tx, info, args.body);
    const { names, values } = toColumns(info, args.body, 'POST');
    await assertMayCreate(tx, ctx, info, names, values);
    const sql =
      names.length === 0
        ? `INSERT INTO ${ident(info.name)} DEFAULT VALUES RETURNING "id"`
        : `INSERT INTO ${ident(info.name)} (${names.map(ident).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING "id"`;
    const { rows } = await withDbErrors(() => tx.query<{ id: number }>(sql, values), app.rules);
    const id = rows[0]!.id;
    await assertRowsAllowed(tx, ctx, check, [id]);
    await runHooks(hooks, 'after', { ...args, ids: [id] });
    const auditor = origin && app.rules.writeAuditor();
    if (auditor && origin) await auditor.record({ tx, ctx, origin, resource: info.name, method: 'POST', ids: [id], after: await auditor.snapshot(tx, info.name, [id]) });
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
export async function odataPatch<A extends RuleHost<A>>(app: A, db: Db, ctx: DataContext, url: string, body: unknown, origin?: WriteOrigin): Promise<number[]> {
  const { parsed, info } = parseWriteUrl(url, 'PATCH');
  assertMayWrite(parsed, ctx, 'update');
  const hooks = app.rules.hooksFor(info.name, 'PATCH');
  const input = validateInput(info, body, 'PATCH', acceptedFields(hooks));
  return db.tx(async (tx) => {
    await assertReferencesReadable(tx, ctx, info, input, app.rules);
    const ids = await affectedIds(tx, ctx, url, parsed, 'update');
    // A stored file belongs to one row: removing that row (or its file) removes the file.
    if (ids.length > 1 && Object.keys(input).some((n) => info.fields.get(n)?.type === 'WebResource' && input[n] !== null)) {
      throw new BadRequestError('A file can be written to one row at a time');
    }
    const args: HookArgs<A> = { tx, app, actor: ctx, resource: info.name, method: 'PATCH', body: input, ids };
    await runWriteGuards(app.rules.writeGuards(), args);
    await runHooks(hooks, 'before', args);
    const auditor = origin && ids.length > 0 ? app.rules.writeAuditor() : undefined;
    const before = auditor && (await auditor.snapshot(tx, info.name, ids));
    const { names, values } = toColumns(info, args.body, 'PATCH');
    if (ids.length > 0 && names.length > 0) {
      const set = names.map((n, i) => `${ident(n)} = $${i + 1}`).join(', ');
      const sql = `UPDATE ${ident(info.name)} SET ${set} WHERE "id" = ANY($${names.length + 1}::integer[])`;
      await withDbErrors(() => tx.query(sql, [...values, ids]), app.rules);
      if (names.some((n) => info.fields.get(n)?.type === 'ForeignKey')) {
        await assertRowsAllowed(tx, ctx, rowCheck(ctx, info.name, 'update'), ids);
      }
    }
    await runHooks(hooks, 'after', args);
    if (auditor && origin) await auditor.record({ tx, ctx, origin, resource: info.name, method: 'PATCH', ids, before, after: await auditor.snapshot(tx, info.name, ids) });
    return ids;
  });
}

/** DELETE by key or `$filter`: only rows the caller's delete rule allows. */
export async function odataDelete<A extends RuleHost<A>>(app: A, db: Db, ctx: DataContext, url: string, origin?: WriteOrigin): Promise<void> {
  const { parsed, info } = parseWriteUrl(url, 'DELETE');
  assertMayWrite(parsed, ctx, 'delete');
  const hooks = app.rules.hooksFor(info.name, 'DELETE');
  await db.tx(async (tx) => {
    const ids = await affectedIds(tx, ctx, url, parsed, 'delete');
    const args: HookArgs<A> = { tx, app, actor: ctx, resource: info.name, method: 'DELETE', body: {}, ids };
    await runWriteGuards(app.rules.writeGuards(), args);
    await runHooks(hooks, 'before', args);
    const auditor = origin && ids.length > 0 ? app.rules.writeAuditor() : undefined;
    const before = auditor && (await auditor.snapshot(tx, info.name, ids));
    if (ids.length > 0) {
      await withDbErrors(() => tx.query(`DELETE FROM ${ident(info.name)} WHERE "id" = ANY($1::integer[])`, [ids]), app.rules);
    }
    await runHooks(hooks, 'after', args);
    if (auditor && origin) await auditor.record({ tx, ctx, origin, resource: info.name, method: 'DELETE', ids, before });
  });
}

/** 401 before a transaction is opened when the caller may never do `action` here. */
function assertMayWrite(parsed: ParsedUrl, ctx: DataContext, action: 'update' | 'delete'): void {
  rootCondition(ctx.permissions, parsed.tree.resource as string, action, 't0');
}

export type { WriteMethod };
