import type { FieldDef } from '@flotilla/model';
import { BadRequestError } from '../errors.js';
import type { ODataBinds } from '@balena/odata-parser';
import { ACTOR_MARK, ALIAS_MARK, Aliases, col, conditionAt, ident, LiteralBinder, NEW_ROW_MARK } from './sql.js';
import { fieldOf, navigationOf, navigationTarget, resourceInfo, VALUE_TYPE, type Navigation, type ResourceInfo, type ValueType } from './resources.js';
import { callFunction } from './functions.js';
import { parseFilter } from './url.js';
import { MAX_LAMBDA_DEPTH } from './limits.js';
import {
  comparable,
  isTemporal,
  literalValue,
  naturalType,
  sqlOperand,
  toCondition,
  toSql,
  typeError,
  type CompileEnv,
  type Operand,
  type Scope,
} from './operand.js';

/**
 * Compiles a parsed $filter (or permission condition) to a SQL condition. Navigations
 * become correlated subqueries (`EXISTS` for lambdas, scalar subqueries for paths through
 * to-one navigations, `count(*)` for `$count`), each with the caller's read condition for
 * the navigated resource AND-ed in.
 */

/** A property path as the parser gives it (`a/b`, `nav/any(x:…)`, `nav/$count(…)`). */
interface PathNode {
  name: string;
  property?: PathNode;
  lambda?: { method: 'any' | 'all'; identifier: string; expression: unknown };
  method?: unknown;
  count?: true;
  key?: unknown;
  options?: { $filter?: unknown };
}

const COMPARISON: Record<string, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };
const ARITHMETIC: Record<string, string> = { add: '+', sub: '-', mul: '*', div: '/', mod: '%' };

export function compileFilter(tree: unknown, scope: Scope, env: CompileEnv): string {
  return toCondition(expression(tree, scope, env), env);
}

function expression(node: unknown, scope: Scope, env: CompileEnv): Operand {
  if (node === null) return { kind: 'null' };
  if (Array.isArray(node)) return operation(node, scope, env);
  if (typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if ('bind' in o) return bindOperand(o.bind as string | number, env);
    if (typeof o.name === 'string') return path(o as unknown as PathNode, scope, env);
    if ('negative' in o) return duration(o, env);
  }
  throw new BadRequestError('Unsupported expression in $filter');
}

function bindOperand(key: string | number, env: CompileEnv): Operand {
  // The caller's own id: a parameter set per request, never a value from the URL.
  if (key === '@__ACTOR_ID') return { kind: 'sql', sql: ACTOR_MARK, type: 'number', literal: true };
  const bind = (env.binds as unknown as Record<string | number, readonly [string, unknown] | undefined>)[key];
  if (!bind) throw new BadRequestError(`Unknown parameter alias in $filter: ${String(key)}`);
  return { kind: 'bind', bind };
}

function duration(d: Record<string, unknown>, env: CompileEnv): Operand {
  const sign = d.negative ? '-' : '';
  const parts = (['day', 'hour', 'minute', 'second'] as const)
    .filter((p) => typeof d[p] === 'number')
    .map((p) => `${sign}${d[p] as number} ${p}s`);
  return sqlOperand(env.binder.value(parts.join(' '), 'interval'), 'duration');
}

function operation(node: unknown[], scope: Scope, env: CompileEnv): Operand {
  const op = node[0] as string;
  if (op === 'and' || op === 'or') {
    const parts = node.slice(1).map((n) => toCondition(expression(n, scope, env), env));
    return sqlOperand(`(${parts.join(op === 'and' ? ' AND ' : ' OR ')})`, 'boolean');
  }
  if (op === 'not') {
    // OData's `not` of an unknown (null) comparison is true; SQL's would be null.
    return sqlOperand(`(NOT coalesce(${toCondition(expression(node[1], scope, env), env)}, false))`, 'boolean');
  }
  if (op === 'call') {
    const { method, args } = node[1] as { method: string; args: unknown[] };
    return callFunction(method, args.map((a) => expression(a, scope, env)), env);
  }
  if (op === 'eqany') return inList(expression(node[1], scope, env), node[2], env);
  const sym = COMPARISON[op];
  const arith = ARITHMETIC[op];
  if (sym === undefined && arith === undefined) throw new BadRequestError(`Unsupported operator in $filter: ${String(op)}`);
  // The parser gathers a chain of one operator into one node (`a add b add c`); it
  // associates to the left.
  let result = expression(node[1], scope, env);
  for (const operand of node.slice(2)) {
    const right = expression(operand, scope, env);
    result = sym !== undefined ? compare(op, sym, result, right, env) : arithmetic(op, arith!, result, right, env);
  }
  return result;
}

/** Both sides' SQL, each literal cast to the other side's type. */
function pair(l: Operand, r: Operand, env: CompileEnv): [string, string, ValueType] {
  if (l.kind === 'bind' && r.kind === 'sql') return [toSql(l, env, r.type), r.sql, r.type];
  if (r.kind === 'bind' && l.kind === 'sql') return [l.sql, toSql(r, env, l.type), l.type];
  const lt = naturalType(l);
  const rt = naturalType(r);
  if (!comparable(lt, rt)) throw typeError(`cannot compare ${lt} with ${rt}`);
  return [toSql(l, env), toSql(r, env), lt === 'null' ? rt : lt];
}

const isValue = (o: Operand) => o.kind === 'bind' || (o.kind === 'sql' && o.literal === true);

function compare(op: string, sym: string, l: Operand, r: Operand, env: CompileEnv): Operand {
  if (l.kind === 'null' || r.kind === 'null') {
    const other = l.kind === 'null' ? r : l;
    if (other.kind === 'null') return sqlOperand(op === 'eq' ? 'TRUE' : 'FALSE', 'boolean');
    // An ordering comparison with null is false (OData; SQL's would be null). The other
    // side's SQL, and any parameter in it, is dropped (see `finalize`).
    if (op !== 'eq' && op !== 'ne') return sqlOperand('FALSE', 'boolean');
    const sql = toSql(other, env);
    if (op === 'eq') return sqlOperand(`(${sql} IS NULL)`, 'boolean');
    return sqlOperand(`(${sql} IS NOT NULL)`, 'boolean');
  }
  const [a, b, type] = pair(l, r, env);
  if (type === 'json') throw typeError('JSON fields can only be compared with null');
  let operator = sym;
  // OData compares nulls as values: `x ne 5` holds for a null x. With a literal on one
  // side `=` means the same as IS NOT DISTINCT FROM and keeps indexes usable.
  if (op === 'ne') operator = 'IS DISTINCT FROM';
  else if (op === 'eq' && !isValue(l) && !isValue(r)) operator = 'IS NOT DISTINCT FROM';
  return sqlOperand(`(${a} ${operator} ${b})`, 'boolean');
}

function arithmetic(op: string, sym: string, l: Operand, r: Operand, env: CompileEnv): Operand {
  const lt = l.kind === 'bind' && r.kind === 'sql' ? r.type : naturalType(l);
  const rt = r.kind === 'bind' && l.kind === 'sql' ? l.type : naturalType(r);
  if (lt === 'null' || rt === 'null') {
    // Arithmetic with null is null (OData, like SQL), once the other side could take part
    // in arithmetic at all. A typeless `NULL + NULL` would not even reach PostgreSQL's
    // planner, so the result is the null operand itself; the other side's SQL is dropped
    // (its parameters with it, see `finalize`).
    const other = lt === 'null' ? rt : lt;
    const additive = op === 'add' || op === 'sub';
    if (other !== 'null' && other !== 'number' && !((isTemporal(other) || other === 'duration') && additive)) {
      throw typeError(`cannot ${op} ${lt} and ${rt}`);
    }
    return { kind: 'null' };
  }
  let type: ValueType | undefined;
  if (lt === 'number' && rt === 'number') type = 'number';
  else if (isTemporal(lt) && rt === 'duration' && (op === 'add' || op === 'sub')) type = 'datetime';
  else if (isTemporal(lt) && isTemporal(rt) && op === 'sub') type = 'duration';
  else if (lt === 'duration' && rt === 'duration' && (op === 'add' || op === 'sub')) type = 'duration';
  if (type === undefined) throw typeError(`cannot ${op} ${lt} and ${rt}`);
  return sqlOperand(`(${toSql(l, env, lt)} ${sym} ${toSql(r, env, rt)})`, type);
}

// Wider numeric casts win when a list mixes them.
const NUMBER_CASTS = ['integer', 'bigint', 'numeric'];

/**
 * `x in (…)` as `x = ANY($n::type[])`: one array parameter, so lists of any length share
 * one statement shape (the SDK batches `id in (…)` by the hundred).
 */
function inList(lhs: Operand, listRef: unknown, env: CompileEnv): Operand {
  const key = (listRef as { bind?: number }).bind;
  const list = typeof key === 'number' ? env.binds[key] : undefined;
  if (!list || list[0] !== 'List') throw new BadRequestError('Malformed in (…) list in $filter');
  const items = list[1] as [string, unknown][];
  const firstValue = items.find((i) => i[0] !== 'Null');
  if (!firstValue) return sqlOperand('FALSE', 'boolean'); // x IN (NULL) is never true
  const target = lhs.kind === 'sql' ? lhs.type : naturalType({ kind: 'bind', bind: firstValue });
  const values: unknown[] = [];
  let cast: string | undefined;
  for (const item of items) {
    if (item[0] === 'Null') {
      values.push(null);
      continue;
    }
    const v = literalValue(item, target);
    values.push(v.value);
    if (cast === undefined || (NUMBER_CASTS.includes(v.cast) && NUMBER_CASTS.indexOf(v.cast) > NUMBER_CASTS.indexOf(cast))) cast = v.cast;
  }
  const lhsSql = lhs.kind === 'sql' ? lhs.sql : toSql(lhs, env, target);
  return sqlOperand(`(${lhsSql} = ANY(${env.binder.list(values, cast!)}))`, 'boolean');
}

// ---------------------------------------------------------------------------------------
// Property paths and navigations

function path(node: PathNode, scope: Scope, env: CompileEnv): Operand {
  const variable = scope.vars.get(node.name);
  if (variable) {
    if (!node.property) throw new BadRequestError(`Lambda variable '${node.name}' must be followed by a property`);
    return member(node.property, variable.resource, variable.alias, scope, env);
  }
  return member(node, scope.resource, scope.alias, scope, env);
}

/** `node` resolved against `resource` at `alias`. */
function member(node: PathNode, resource: ResourceInfo, alias: string, scope: Scope, env: CompileEnv): Operand {
  if (node.key !== undefined || node.method !== undefined) {
    throw new BadRequestError(`Unsupported path in $filter at '${node.name}'`);
  }
  if (node.lambda) return lambda(navigationOf(resource, node.name), alias, node.lambda, scope, env);
  if (node.count) return count(navigationOf(resource, node.name), alias, node.options?.$filter, scope, env);
  if (node.property) {
    const nav = navigationOf(resource, node.name);
    if (nav.kind !== 'one') {
      throw new BadRequestError(`'${nav.name}' is a collection; use ${nav.name}/any(…), ${nav.name}/all(…) or ${nav.name}/$count`);
    }
    const target = navigationTarget(nav);
    const t = env.aliases.next();
    const inner = member(node.property, target, t, scope, env);
    if (inner.kind !== 'sql') throw new BadRequestError('Unsupported path in $filter');
    return sqlOperand(`(SELECT ${inner.sql} ${navigationFrom(nav, alias, t, env)})`, inner.type);
  }
  const field = fieldOf(resource, node.name, env.trusted);
  return sqlOperand(fieldColumn(resource, field, alias, env), VALUE_TYPE[field.type]);
}

/** SQL types of the values a private field may hold (for its typed NULL). */
const NULL_CAST: Record<FieldDef['type'], string> = {
  Serial: 'integer',
  Integer: 'integer',
  'Big Integer': 'bigint',
  Real: 'double precision',
  Boolean: 'boolean',
  'Short Text': 'text',
  Text: 'text',
  'Date Time': 'timestamptz',
  JSON: 'jsonb',
  WebResource: 'jsonb',
  ForeignKey: 'integer',
};

/**
 * The value of `field` of the row at `alias` as the caller may see it. A private field
 * (`FieldDef.private`) is the column where the caller's read-private condition holds for
 * that row and null elsewhere, wherever it is used ($select, $filter, $orderby), so it can
 * be neither read nor probed. Permission texts (trusted) see the column.
 */
export function fieldColumn(resource: ResourceInfo, field: FieldDef, alias: string, env: CompileEnv): string {
  const c = fieldValue(field, alias);
  if (!field.private || env.trusted) return c;
  const condition = env.privateCondition(resource.name, alias);
  if (condition === '') return c;
  if (condition === 'FALSE') return `NULL::${NULL_CAST[field.type]}`;
  return `CASE WHEN ${condition} THEN ${c} END`;
}

/** The value of `field` at `alias`: its column, or a computed field's expression over the row. */
export function fieldValue(field: FieldDef, alias: string): string {
  return field.computed === undefined ? col(alias, field.name) : `(${field.computed.replaceAll('{row}', alias)})`;
}

/**
 * `<join> [AND <read condition>]` relating the row at `t` of a navigation's target to the
 * row at `outer`. Navigations the caller names are checked against their read
 * permission; those inside permission texts are trusted.
 */
export function navigationJoin(nav: Navigation, outer: string, t: string, env: CompileEnv): string {
  const join =
    nav.kind === 'caller'
      ? `${col(t, 'actor')} = ${ACTOR_MARK} AND ${callerNavigationCondition(nav.from, nav.name, nav.condition, outer)}`
      : nav.kind === 'one'
        ? `${col(t, 'id')} = ${nav.computed === undefined ? col(outer, nav.column) : `(${nav.computed.replaceAll('{row}', outer)})`}`
        : `${col(t, nav.column)} = ${col(outer, 'id')}`;
  const condition = env.trusted ? '' : env.navigationCondition(nav.target, t);
  const exclusion = env.newRowOf === nav.target ? ` AND ${col(t, 'id')} <> ${NEW_ROW_MARK}` : '';
  return (condition ? `${join} AND ${condition}` : join) + exclusion;
}

/** `FROM target AS t WHERE <navigationJoin>` */
export function navigationFrom(nav: Navigation, outer: string, t: string, env: CompileEnv): string {
  return `FROM ${ident(nav.target)} AS ${t} WHERE ${navigationJoin(nav, outer, t, env)}`;
}

function lambda(nav: Navigation, outer: string, l: NonNullable<PathNode['lambda']>, scope: Scope, env: CompileEnv): Operand {
  const target = navigationTarget(nav);
  const t = env.aliases.next();
  const vars = new Map(scope.vars).set(l.identifier, { resource: target, alias: t });
  const body = compileFilter(l.expression, { ...scope, vars, depth: nested(scope, env) }, env);
  const from = navigationFrom(nav, outer, t, env);
  if (l.method === 'any') return sqlOperand(`EXISTS (SELECT 1 ${from} AND ${body})`, 'boolean');
  // all: no related (readable) row fails the condition.
  return sqlOperand(`(NOT EXISTS (SELECT 1 ${from} AND NOT coalesce(${body}, false)))`, 'boolean');
}

/**
 * The depth of a lambda (or `$count` filter) inside `scope`. Each level multiplies the rows
 * PostgreSQL may visit, so a caller's $filter may nest MAX_LAMBDA_DEPTH of them; permission
 * texts (trusted, or passed as filters by rules acting as root) are not limited.
 */
function nested(scope: Scope, env: CompileEnv): number {
  const depth = (scope.depth ?? 0) + 1;
  if (env.limitNesting === true && !env.trusted && depth > MAX_LAMBDA_DEPTH) {
    throw new BadRequestError(`Lambdas (any, all, $count with $filter) may be nested at most ${MAX_LAMBDA_DEPTH} levels deep in $filter`);
  }
  return depth;
}

/** `nav/$count($filter=…)`: the filter is relative to the counted resource. */
function count(nav: Navigation, outer: string, filter: unknown, scope: Scope, env: CompileEnv): Operand {
  const target = navigationTarget(nav);
  const t = env.aliases.next();
  const where = filter === undefined ? '' : ` AND ${compileFilter(filter, { resource: target, alias: t, vars: scope.vars, depth: nested(scope, env) }, env)}`;
  return sqlOperand(`(SELECT count(*) ${navigationFrom(nav, outer, t, env)}${where})`, 'number');
}

/** A property path in $orderby (a field, a path through to-one navigations or `nav/$count`). */
export function compileValuePath(node: PathNode, scope: Scope, env: CompileEnv): string {
  const op = path(node, scope, env);
  if (op.kind !== 'sql') throw new BadRequestError('Unsupported $orderby');
  if (op.type === 'json') throw new BadRequestError(`Cannot order by the JSON field '${node.name}'`);
  return op.sql;
}

export type { PathNode };

// Trusted filter texts (permission conditions and the caller navigations) are compiled here,
// beside the compiler they recurse into; permissions.ts compiles its rules through them.

const parsedConditions = new Map<string, { tree: unknown; binds: ODataBinds }>();

function parsedCondition(text: string): { tree: unknown; binds: ODataBinds } {
  let p = parsedConditions.get(text);
  if (!p) {
    p = parseFilter(text);
    parsedConditions.set(text, p);
  }
  return p;
}

/** A trusted filter text over `resource` compiled at ALIAS_MARK (navigations in it are not re-checked). */
export function compileTrusted(resource: string, text: string, aliases: Aliases, forWrittenRow = false): string {
  const { tree, binds } = parsedCondition(text);
  return compileFilter(
    tree,
    { resource: resourceInfo(resource), alias: ALIAS_MARK, vars: new Map() },
    {
      binder: new LiteralBinder(),
      binds,
      aliases,
      trusted: true,
      navigationCondition: () => '',
      privateCondition: () => '',
      ...(forWrittenRow ? { newRowOf: resource } : {}),
    },
  );
}

const callerConditions = new Map<string, string>();

/**
 * The condition of a navigation to the caller's own row (CALLER_NAVIGATIONS) applied to the
 * starting row at `alias`; compiled once per navigation.
 */
export function callerNavigationCondition(from: string, name: string, text: string, alias: string): string {
  const key = `${from}\u0000${name}`;
  let c = callerConditions.get(key);
  if (c === undefined) {
    c = compileTrusted(from, text, new Aliases(ALIAS_MARK));
    callerConditions.set(key, c);
  }
  return conditionAt(c, alias);
}
