import type { Action, DeviceOperation, FieldDef } from '@flotilla/model';
import type { ExpandPropertyPath, ODataOptions, SelectOption } from '@balena/odata-parser';
import { BadRequestError } from '../errors.js';
import { compileFilter, compileValuePath, fieldColumn, navigationFrom, navigationJoin, type PathNode } from './filter.js';
import { toSql, type CompileEnv, type Scope } from './operand.js';
import { navigationCondition, privateFieldCondition, ROOT_PERMISSIONS, rootCondition, type Access } from './permissions.js';
import { fieldOf, navigationOf, navigationTarget, resourceInfo, unknownField, VALUE_TYPE, type ResourceInfo } from './resources.js';
import { Aliases, col, finalize, ident, isoTimestamp, ParamBinder, type Statement } from './sql.js';
import type { ParsedUrl } from './url.js';
import { WEB_RESOURCE_MARK, webResourceSql } from './web-resource.js';
import { DEFAULT_PAGE_SIZE, MAX_EXPAND_DEPTH, MAX_PAGE_SIZE, MAX_RESPONSE_BYTES } from './limits.js';

/**
 * Compiles a parsed URL into ONE SQL statement. A collection GET builds its JSON in the
 * database: each row is a sub-select whose columns are named like the fields, each
 * `$expand` a correlated `json_agg` joined to the page, and the rows are aggregated with
 * `json_agg`, so a list costs one round trip and no JSON work in Node.
 */

export interface CompiledGet extends Statement {
  /**
   * `collection`: one row `{d: '<JSON array text>', n: <its bytes>}` (`d` null when `n` is
   * over MAX_RESPONSE_BYTES); `count`: one row `{d: <integer>}`.
   */
  kind: 'collection' | 'count';
  /** The JSON holds stored-file placeholders (WebResource fields) for the read path to link. */
  webResources?: boolean;
}

function environment(url: ParsedUrl, access: Access): CompileEnv {
  return {
    binder: new ParamBinder(),
    binds: url.binds,
    aliases: new Aliases(),
    trusted: false,
    limitNesting: access !== 'root' && access !== ROOT_PERMISSIONS,
    navigationCondition: (resource, alias) => navigationCondition(access, resource, alias),
    privateCondition: (resource, alias) => privateFieldCondition(access, resource, alias),
  };
}

/**
 * The conditions naming which rows of the URL's resource a request is about: key path,
 * `$filter` and the caller's `action` permission.
 */
function rootConditions(url: ParsedUrl, info: ResourceInfo, alias: string, access: Access, action: Action, env: CompileEnv): string[] {
  const where: string[] = [];
  const permission = rootCondition(access, info.name, action, alias);
  if (permission !== undefined) where.push(permission);
  if (url.tree.key !== undefined) where.push(...keyConditions(url.tree.key, info, alias, env));
  const filter = url.options.$filter;
  if (filter !== undefined) where.push(compileFilter(filter, { resource: info, alias, vars: new Map() }, env));
  return where;
}

/** `res(5)`, `device(uuid='…')`, composite `(a=1,b='x')`: one of the resource's keys. */
function keyConditions(key: NonNullable<ParsedUrl['tree']['key']>, info: ResourceInfo, alias: string, env: CompileEnv): string[] {
  const named: Record<string, { bind: string | number }> = 'bind' in key ? { id: key as { bind: number } } : (key as Record<string, { bind: number }>);
  const names = Object.keys(named);
  const known = info.keys.some((k) => k.length === names.length && k.every((f) => names.includes(f)));
  if (!known) throw new BadRequestError(`Unknown key (${names.join(', ')}) for resource '${info.name}'`);
  return names.map((name) => {
    const field = fieldOf(info, name);
    // A key is a lookup by value: on a private field it would be a probe.
    if (field.private) throw new BadRequestError(`The private field '${name}' of resource '${info.name}' cannot be a key`);
    const bind = env.binds[named[name]!.bind as number];
    if (!bind) throw new BadRequestError(`Invalid key for resource '${info.name}'`);
    try {
      return `${col(alias, name)} = ${toSql({ kind: 'bind', bind }, env, VALUE_TYPE[field.type])}`;
    } catch {
      throw new BadRequestError(`Invalid value for key '${name}' of resource '${info.name}'`);
    }
  });
}

export function compileGet(url: ParsedUrl, access: Access): CompiledGet {
  const info = resourceInfo(url.tree.resource as string);
  const env = environment(url, access);
  const t = env.aliases.next();
  const where = rootConditions(url, info, t, access, 'read', env);
  const binder = env.binder as ParamBinder;
  if (url.tree.count) {
    const limited = url.options.$top !== undefined || url.options.$skip !== undefined;
    const inner = `SELECT 1 FROM ${ident(info.name)} AS ${t}${whereClause(where)}${limits(url.options, env, false)}`;
    const sql = limited
      ? `SELECT count(*)::integer AS d FROM (${inner}) AS c`
      : `SELECT count(*)::integer AS d FROM ${ident(info.name)} AS ${t}${whereClause(where)}`;
    return { ...finalize(sql, binder), kind: 'count' };
  }
  // rootConditions already holds the $filter.
  const rows = collection(info, t, { ...url.options, $filter: undefined }, where, env, true);
  // The JSON is measured where it is built: a text over the cap never reaches the driver
  // (which cannot hold a string over 512 MB) nor the process's memory.
  const json = `SELECT coalesce(json_agg(q.*), '[]'::json)::text AS d FROM (${rows}) AS q`;
  const sql = `SELECT CASE WHEN octet_length(r.d) <= ${MAX_RESPONSE_BYTES} THEN r.d END AS d, octet_length(r.d) AS n FROM (${json}) AS r`;
  return { ...finalize(sql, binder), kind: 'collection', webResources: sql.includes(WEB_RESOURCE_MARK) };
}

/** The ids a PATCH or DELETE touches: key path, $filter and the caller's `action` rule. */
export function compileAffectedIds(url: ParsedUrl, access: Access, action: 'update' | 'delete' | DeviceOperation, lock = true): Statement {
  const info = resourceInfo(url.tree.resource as string);
  const env = environment(url, access);
  const t = env.aliases.next();
  // Navigations named in the $filter are checked against *read*; the row itself against `action`.
  const where = rootConditions(url, info, t, access, action, env);
  const sql = `SELECT ${col(t, 'id')} AS id FROM ${ident(info.name)} AS ${t}${whereClause(where)} ORDER BY ${col(t, 'id')}${lock ? ` FOR UPDATE OF ${t}` : ''}`;
  return finalize(sql, env.binder as ParamBinder);
}

/**
 * The ids of the rows a GET reads at its top level (key path, `$filter`, `$orderby`, `$top`,
 * `$skip` and the caller's read rule), for audit trails. For `/$count`, the first
 * MAX_PAGE_SIZE rows counted. Expanded rows are not listed: they are reached through these.
 */
export function compileReadIds(url: ParsedUrl, access: Access): Statement {
  const info = resourceInfo(url.tree.resource as string);
  const env = environment(url, access);
  const t = env.aliases.next();
  const where = rootConditions(url, info, t, access, 'read', env);
  const sql = url.tree.count
    ? `SELECT ${col(t, 'id')} AS id FROM ${ident(info.name)} AS ${t}${whereClause(where)} LIMIT ${MAX_PAGE_SIZE}`
    : collection(info, t, { ...url.options, $filter: undefined, $expand: undefined, $select: { properties: [{ name: 'id' }] } as unknown as SelectOption }, where, env);
  return finalize(sql, env.binder as ParamBinder);
}

/** A row of `resource` as the API shows it (secret fields absent, FKs as `{__id}`), by id. */
export function compileEntityById(resource: string): Statement {
  const info = resourceInfo(resource);
  const env = environment({ tree: { resource }, binds: [], options: {} } as unknown as ParsedUrl, 'root');
  const t = env.aliases.next();
  const id = env.binder.value(null, 'integer');
  const sql = `SELECT row_to_json(q.*) AS entity FROM (${collection(info, t, {}, [`${col(t, 'id')} = ${id}`], env)}) AS q`;
  return finalize(sql, env.binder as ParamBinder);
}

const whereClause = (where: string[]) => (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '');

/**
 * `SELECT <fields and expands> FROM …` for one level of a GET. The rows of the page (WHERE,
 * ORDER BY, LIMIT) are chosen in a derived table first; each `$expand` is then a `LEFT JOIN
 * LATERAL` on that page. As a lateral join (rather than a subquery in the select list)
 * PostgreSQL can memoize it when its statistics say the keys repeat.
 */
function collection(info: ResourceInfo, alias: string, options: ODataOptions, where: string[], env: CompileEnv, top = false, depth = 0): string {
  const expands = options.$expand?.properties ?? [];
  if (expands.length > 0 && depth >= MAX_EXPAND_DEPTH) throw new BadRequestError(`$expand may be nested at most ${MAX_EXPAND_DEPTH} levels deep`);
  const expanded = new Set<string>();
  for (const e of expands) {
    if (expanded.has(e.name)) throw new BadRequestError(`'${e.name}' is expanded twice`);
    expanded.add(e.name);
  }
  const columns = selectedFields(info, options.$select, expanded)
    .filter((f) => !expanded.has(f.name))
    .map((f) => `${fieldSql(f, fieldColumn(info, f, alias, env))} AS ${ident(f.name)}`);
  const conditions = [...where];
  if (options.$filter !== undefined) conditions.push(compileFilter(options.$filter, scopeOf(info, alias), env));
  let page = `FROM ${ident(info.name)} AS ${alias}${whereClause(conditions)}`;
  const order = options.$orderby?.properties ?? [];
  if (order.length > 0) {
    const scope = scopeOf(info, alias);
    const terms = order.map((p) => `${compileValuePath(p as unknown as PathNode, scope, env)} ${p.order === 'asc' ? 'ASC' : 'DESC'}`);
    page += ` ORDER BY ${terms.join(', ')}`;
  }
  page += limits(options, env);
  if (expands.length === 0) return `SELECT ${columns.join(', ')} ${page}`;
  // Computed to-one navigations have no column in the page to group on: they join laterally.
  const isToOne = (e: ExpandPropertyPath) => {
    const nav = info.navigations.get(e.name);
    return !e.count && e.property === undefined && nav?.kind === 'one' && nav.computed === undefined;
  };
  if (top && expands.some(isToOne)) return dedupedCollection(info, alias, page, order.length > 0, columns, expands, isToOne, env, depth);
  const joins = expands.map((e) => {
    const j = env.aliases.next();
    columns.push(`${j}.j AS ${ident(e.name)}`);
    return ` LEFT JOIN LATERAL (${expandSql(e, info, alias, env, depth)}) AS ${j} ON true`;
  });
  // The outer level adds no ORDER BY: a lateral nested loop keeps the page's order.
  return `SELECT ${columns.join(', ')} FROM (SELECT ${alias}.* ${page}) AS ${alias}${joins.join('')}`;
}

/**
 * The top level with to-one expands: each distinct target (fifty fleets, one organization)
 * is built and permission-checked once, whatever PostgreSQL's statistics say. The page is
 * a CTE numbered in its order, joined to one row per distinct foreign key value.
 */
function dedupedCollection(
  info: ResourceInfo,
  alias: string,
  page: string,
  ordered: boolean,
  columns: string[],
  expands: ExpandPropertyPath[],
  isToOne: (e: ExpandPropertyPath) => boolean,
  env: CompileEnv,
  depth: number,
): string {
  // Each per-key set is a CTE of its own, MATERIALIZED: joined as a subquery, PostgreSQL could
  // re-run its expand once per page row (788 rows × 133 targets = 105,217 permission checks,
  // 4.6 s, for `release_tag?$expand=release&$skip=50`: found by the fuzzer, issue 21).
  const perKeyCtes: string[] = [];
  const joins = expands.map((e) => {
    const j = env.aliases.next();
    if (!isToOne(e)) {
      columns.push(`${j}.j AS ${ident(e.name)}`);
      return ` LEFT JOIN LATERAL (${expandSql(e, info, alias, env, depth)}) AS ${j} ON true`;
    }
    const nav = navigationOf(info, e.name);
    if (nav.kind !== 'one') throw new Error(`${e.name} is not a to-one navigation`);
    const fk = ident(nav.column);
    const k = env.aliases.next();
    columns.push(`coalesce(${j}.j, '[]'::json) AS ${ident(e.name)}`);
    const perKey = `SELECT ${k}.${fk} AS k, (${expandSql(e, info, k, env, depth)}) AS j FROM (SELECT DISTINCT ${alias}.${fk} FROM page AS ${alias}) AS ${k}`;
    perKeyCtes.push(`, ${j}_keys AS MATERIALIZED (${perKey})`);
    return ` LEFT JOIN ${j}_keys AS ${j} ON ${j}.k = ${alias}.${fk}`;
  });
  const keys = perKeyCtes.join('');
  // Joins may reorder rows: an ordered page numbers its rows and sorts on that number.
  // Without $orderby there is no order to keep.
  if (!ordered) return `WITH page AS MATERIALIZED (SELECT ${alias}.* ${page})${keys} SELECT ${columns.join(', ')} FROM page AS ${alias}${joins.join('')}`;
  const cte = `WITH page AS MATERIALIZED (SELECT ${alias}.*, row_number() OVER () AS "__n" FROM (SELECT ${alias}.* ${page}) AS ${alias})${keys}`;
  return `${cte} SELECT ${columns.join(', ')} FROM page AS ${alias}${joins.join('')} ORDER BY ${alias}."__n"`;
}

const scopeOf = (resource: ResourceInfo, alias: string): Scope => ({ resource, alias, vars: new Map() });

/**
 * `LIMIT`/`OFFSET` of one level. A page of rows (the top level and every `$expand` level)
 * is `DEFAULT_PAGE_SIZE` rows unless `$top` asks for another size up to `MAX_PAGE_SIZE`
 * (`paged`: not for `/$count`, which counts every row).
 */
function limits(options: ODataOptions, env: CompileEnv, paged = true): string {
  let sql = '';
  for (const [option, clause] of [['$top', 'LIMIT'], ['$skip', 'OFFSET']] as const) {
    const ref = options[option] as unknown as { bind: number } | undefined;
    if (ref === undefined) {
      if (option === '$top' && paged) sql += ` LIMIT ${DEFAULT_PAGE_SIZE}`;
      continue;
    }
    const bind = env.binds[ref.bind];
    if (!bind) throw new BadRequestError(`Invalid ${option}`);
    if (option === '$top' && paged && Number(bind[1]) > MAX_PAGE_SIZE) {
      throw new BadRequestError(`$top may be at most ${MAX_PAGE_SIZE}; page through larger collections with $skip`);
    }
    sql += ` ${clause} ${env.binder.value(bind[1], 'bigint')}`;
  }
  return sql;
}

/**
 * `$select`ed fields (deduplicated; clients send `id,id,…`); without `$select`, every visible
 * field but those read only when selected (`onlyWhenSelected`); `*`, every visible field.
 */
function selectedFields(info: ResourceInfo, select: SelectOption | undefined, expanded: Set<string>): FieldDef[] {
  if (select === undefined) return [...info.fields.values()].filter((f) => !f.onlyWhenSelected);
  if (select === '*') return [...info.fields.values()];
  const seen = new Set<string>();
  const fields: FieldDef[] = [];
  for (const p of select.properties) {
    if (p.property !== undefined || p.count || p.key !== undefined) throw new BadRequestError('Paths in $select are not supported; use $expand');
    if (seen.has(p.name)) continue;
    seen.add(p.name);
    const field = info.fields.get(p.name);
    if (field) fields.push(field);
    // A to-many navigation may be named in $select when it is also expanded.
    else if (!(expanded.has(p.name) && info.navigations.has(p.name))) throw unknownField(info, p.name);
  }
  return fields;
}

/**
 * A field as it appears in a response: FKs `{"__id":N}` or null, timestamps ISO text. `c`
 * is its value (`fieldColumn`: a private field may read as null).
 */
function fieldSql(f: FieldDef, c: string): string {
  if (f.type === 'ForeignKey') return `CASE WHEN ${c} IS NULL THEN NULL ELSE json_build_object('__id', ${c}) END`;
  if (f.type === 'Date Time') return isoTimestamp(c);
  if (f.type === 'WebResource') return webResourceSql(c);
  return c;
}

/**
 * An expanded navigation, as a one-row subquery with column `j`: an array (even to-one)
 * of rows shaped by the nested options and restricted to what the caller may read; or,
 * for `nav/$count`, an integer.
 */
function expandSql(e: ExpandPropertyPath, info: ResourceInfo, alias: string, env: CompileEnv, depth: number): string {
  if (e.property !== undefined) throw new BadRequestError(`Paths in $expand are not supported; use ${e.name}($expand=…)`);
  const nav = navigationOf(info, e.name);
  const target = navigationTarget(nav);
  const t = env.aliases.next();
  const options = e.options ?? {};
  if (e.count) {
    const filter = options.$filter === undefined ? '' : ` AND ${compileFilter(options.$filter, scopeOf(target, t), env)}`;
    return `SELECT count(*)::integer AS j ${navigationFrom(nav, alias, t, env)}${filter}`;
  }
  const rows = collection(target, t, options, [navigationJoin(nav, alias, t, env)], env, false, depth + 1);
  const s = env.aliases.next();
  return `SELECT coalesce(json_agg(${s}.*), '[]'::json) AS j FROM (${rows}) AS ${s}`;
}
