import { createHash } from 'node:crypto';
import type { Db, QueryResult } from '../db/db.js';

/**
 * Small SQL building blocks shared by the compilers: identifier quoting, the two ways a
 * literal reaches SQL (a bind parameter for request values, an escaped literal for the
 * trusted permission texts) and the markers that let compiled fragments be reused.
 */

/** Identifiers are always double-quoted: tables and columns are named exactly as in the model. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Column reference `alias."name"`. */
export function col(alias: string, name: string): string {
  return `${alias}.${ident(name)}`;
}

/**
 * Stands for the caller's actor id until a statement is finalised; then it becomes one
 * `$n::integer` parameter. Control characters cannot come from a URL into SQL text (every
 * URL value is a parameter), so the marker cannot collide.
 */
export const ACTOR_MARK = '\u0001ACTOR\u0001';
/** Stands for the row alias in a cached permission fragment. */
export const ALIAS_MARK = '\u0002';
/** Stands for the id of the row being created in a create-permission fragment. */
export const NEW_ROW_MARK = '\u0003NEW\u0003';
/** Brackets the index of a request value (ParamBinder) until `finalize` numbers it. */
const PARAM_MARK = '\u0004';
const PARAM_MARKS = new RegExp(`${PARAM_MARK}(\\d+)${PARAM_MARK}`, 'g');

/** How values become SQL: each call returns the SQL text that stands for `value`. */
export interface Binder {
  value(value: unknown, cast: string): string;
  /** A list of values of one type, as one SQL array. */
  list(values: unknown[], cast: string): string;
}

/**
 * Request values, collected for the driver. Each stands in the SQL as a marker
 * (`PARAM_MARK n PARAM_MARK::cast`) until `finalize` numbers the markers that the
 * statement's text still holds: the compilers may build an operand's SQL and then drop it
 * (`1 gt null` is FALSE whatever 1 is), and a value whose text was dropped must not
 * become a parameter the statement does not use (PostgreSQL rejects the mismatch).
 */
export class ParamBinder implements Binder {
  readonly values: unknown[] = [];
  value(value: unknown, cast: string): string {
    this.values.push(value);
    return `${PARAM_MARK}${this.values.length - 1}${PARAM_MARK}::${cast}`;
  }
  list(values: unknown[], cast: string): string {
    return this.value(values, `${cast}[]`);
  }
}

/**
 * Permission texts are code, not input: their literals are inlined (escaped) so that a
 * compiled fragment has no parameters except the actor id and can be pasted anywhere.
 */
export class LiteralBinder implements Binder {
  value(value: unknown, cast: string): string {
    return `${sqlLiteral(value)}::${cast}`;
  }
  list(values: unknown[], cast: string): string {
    return `ARRAY[${values.map(sqlLiteral).join(', ')}]::${cast}[]`;
  }
}

function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`non-finite number in permission: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // standard_conforming_strings is on (the default since PostgreSQL 9.1): only ' needs doubling.
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** Hands out unique row aliases within one statement: t0, t1… or `<prefix>_1`, `<prefix>_2`… */
export class Aliases {
  private n = 0;
  constructor(private readonly prefix = 't') {}
  next(): string {
    return this.prefix === 't' ? `t${this.n++}` : `${this.prefix}_${++this.n}`;
  }
}

/** A statement ready to run: its parameters, with the caller's actor id slotted in at run time. */
export interface Statement {
  sql: string;
  /** Prepared-statement name: derived from the SQL text, so one query shape is planned once per connection. */
  name: string;
  params: readonly unknown[];
  /** Index in `params` of the actor id, or -1 when the statement does not use it. */
  actorIndex: number;
  /**
   * Index in `params` of each value the binder handed out, in the order it handed them out
   * (-1 when its text was dropped): parameters are numbered in text order, which need not
   * be the binder's order, so values supplied at run time go through `paramsWith`.
   */
  slots?: readonly number[];
}

export function finalize(sql: string, binder: ParamBinder): Statement {
  // Parameters are numbered in the order the text uses them; values whose text was
  // dropped during compilation are not sent.
  const params: unknown[] = [];
  const slots: number[] = binder.values.map(() => -1);
  sql = sql.replace(PARAM_MARKS, (_, index: string) => {
    const i = Number(index);
    if (slots[i] === -1) {
      params.push(binder.values[i]);
      slots[i] = params.length - 1;
    }
    return `$${slots[i]! + 1}`;
  });
  let actorIndex = -1;
  if (sql.includes(ACTOR_MARK)) {
    params.push(null);
    actorIndex = params.length - 1;
    sql = sql.replaceAll(ACTOR_MARK, `$${params.length}::integer`);
  }
  const name = `odata_${createHash('sha1').update(sql).digest('base64url')}`;
  return { sql, name, params, actorIndex, slots };
}

/**
 * Runs a compiled statement as a *named* prepared statement. Planning these queries costs
 * more than running them (about 1 ms against 0.5 ms for a 50-row list with an expand);
 * named, PostgreSQL plans each query shape once per connection. Values are parameters, so
 * the number of shapes stays small. The Db wrapper hands its first argument to `pg`
 * unchanged and `pg` accepts a `{name, text}` query config there.
 */
export function runStatement<T>(db: Db, stmt: Statement, params: readonly unknown[]): Promise<QueryResult<T>> {
  // Each connection keeps every statement it prepared; past this many shapes (crafted
  // URLs), new ones run unnamed so PostgreSQL's memory stays bounded.
  if (!preparedNames.has(stmt.name)) {
    if (preparedNames.size >= MAX_PREPARED) return db.query<T>(stmt.sql, params);
    preparedNames.add(stmt.name);
  }
  return db.query<T>(stmt.sql, params, { name: stmt.name });
}

const MAX_PREPARED = 2_000;
const preparedNames = new Set<string>();

export function paramsFor(stmt: Statement, actorId: number | null): readonly unknown[] {
  if (stmt.actorIndex < 0) return stmt.params;
  const params = stmt.params.slice();
  params[stmt.actorIndex] = actorId;
  return params;
}

/**
 * The statement's parameters with the actor id and, for each value the binder handed out
 * (in its order, `values[i]` for the i-th `binder.value(...)`), the value to run with.
 */
export function paramsWith(stmt: Statement, actorId: number | null, values: readonly unknown[]): unknown[] {
  const params = paramsFor(stmt, actorId).slice();
  values.forEach((v, i) => {
    const slot = stmt.slots?.[i] ?? i;
    if (slot >= 0) params[slot] = v;
  });
  return params;
}

/** Timestamps leave the database in JavaScript's ISO form (`…T…Z`, milliseconds). */
export function isoTimestamp(expr: string): string {
  return `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A compiled condition applied to the row at `alias`. */
export function conditionAt(condition: string, alias: string): string {
  return condition.replaceAll(ALIAS_MARK, alias);
}
