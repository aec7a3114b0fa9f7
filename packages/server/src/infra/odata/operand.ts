import type { ODataBinds } from '@balena/odata-parser';
import { BadRequestError } from '../errors.js';
import type { ResourceInfo, ValueType } from './resources.js';
import type { Aliases, Binder } from './sql.js';

/**
 * What the $filter compiler passes around: a typed SQL expression, or a literal whose SQL
 * cast waits for the type of the context it is used in (`id eq 5` binds 5 as an integer,
 * `created_at gt '2026-01-01'` binds the text as a timestamptz).
 */
export type Operand =
  | { kind: 'sql'; sql: string; type: ValueType; /** a single value (param or actor id), not a column */ literal?: boolean }
  | { kind: 'bind'; bind: readonly [string, unknown] }
  | { kind: 'null' };

/** Where names in an expression resolve: `$it` (the filtered resource) and lambda variables. */
export interface Scope {
  resource: ResourceInfo;
  alias: string;
  vars: ReadonlyMap<string, { resource: ResourceInfo; alias: string }>;
  /** How many lambdas (and `nav/$count` filters) enclose this expression. */
  depth?: number;
}

/** State shared by one compilation. */
export interface CompileEnv {
  binder: Binder;
  binds: ODataBinds;
  aliases: Aliases;
  /**
   * Permission texts are trusted code: they may name secret columns and their navigations
   * are not re-checked (that would recurse).
   */
  trusted: boolean;
  /**
   * Whether lambdas nest at most MAX_LAMBDA_DEPTH levels: a caller's URL. Rules acting for
   * the system (`asRoot`) pass the model's permission texts as filters, which nest deeper.
   */
  limitNesting?: boolean;
  /**
   * The caller's read condition for a navigated-to resource at `alias`, as SQL to AND in:
   * '' when unconditional, 'FALSE' when not readable at all.
   */
  navigationCondition(resource: string, alias: string): string;
  /**
   * The caller's read-private condition for the row of `resource` at `alias` (see
   * `FieldDef.private`), as SQL: '' when unconditional, 'FALSE' when never. Not consulted
   * when `trusted`.
   */
  privateCondition(resource: string, alias: string): string;
  /**
   * Create checks run after the insert, so a condition could find the new row through a
   * navigation and grant itself (a membership making its own user an administrator).
   * Navigations into this resource then skip the row whose id is NEW_ROW_MARK.
   */
  newRowOf?: string;
}

export function typeError(message: string): BadRequestError {
  return new BadRequestError(`Type mismatch in $filter: ${message}`);
}

const BIND_TYPE: Record<string, ValueType> = {
  Real: 'number',
  Integer: 'number',
  Text: 'text',
  Boolean: 'boolean',
  'Date Time': 'datetime',
  Date: 'date',
};

/** The type a literal has on its own (`'x'` is text, `5` a number…). */
export function naturalType(op: Operand): ValueType {
  if (op.kind === 'sql') return op.type;
  if (op.kind === 'null') return 'null';
  const t = BIND_TYPE[op.bind[0]];
  if (!t) throw new BadRequestError(`Unexpected ${op.bind[0]} literal in $filter`);
  return t;
}

function numberCast(n: number): string {
  if (Number.isInteger(n)) return Math.abs(n) < 2 ** 31 ? 'integer' : 'bigint';
  return 'numeric';
}

export const isTemporal = (t: ValueType) => t === 'datetime' || t === 'date';

/** Whether two typed expressions may be compared (null compares with anything). */
export function comparable(a: ValueType, b: ValueType): boolean {
  if (a === 'null' || b === 'null') return true;
  if (a === 'json' || b === 'json') return false;
  return a === b || (isTemporal(a) && isTemporal(b));
}

/** A literal as a parameter value and the SQL type to cast it to, given the type expected. */
export function literalValue(bind: readonly [string, unknown], target?: ValueType): { value: unknown; cast: string } {
  const [kind, value] = bind;
  const natural = naturalType({ kind: 'bind', bind });
  const want = target === undefined || target === 'null' ? natural : target;
  if (want === 'json') throw typeError('JSON fields can only be compared with null');
  switch (kind) {
    case 'Real':
    case 'Integer':
      if (want !== 'number') break;
      return { value, cast: numberCast(value as number) };
    case 'Boolean':
      if (want !== 'boolean') break;
      return { value, cast: 'boolean' };
    case 'Text':
      // A quoted text may stand for a date or time where one is expected; PostgreSQL
      // parses it (an unparseable one is a 400 through the error translation).
      if (want === 'text') return { value, cast: 'text' };
      if (want === 'datetime') return { value, cast: 'timestamptz' };
      if (want === 'date') return { value, cast: 'date' };
      if (want === 'time') return { value, cast: 'time' };
      break;
    case 'Date Time':
    case 'Date': {
      if (!isTemporal(want)) break;
      const iso = new Date(value as number).toISOString();
      return kind === 'Date' ? { value: iso.slice(0, 10), cast: 'date' } : { value: iso, cast: 'timestamptz' };
    }
  }
  throw typeError(`expected ${want}, got ${natural} literal`);
}

/**
 * The SQL for an operand, casting a literal to the type its context expects. A literal
 * that cannot have that type (`app_name eq 5`) is a 400, before any SQL runs.
 */
export function toSql(op: Operand, env: CompileEnv, target?: ValueType): string {
  if (op.kind === 'sql') return op.sql;
  if (op.kind === 'null') return 'NULL';
  const { value, cast } = literalValue(op.bind, target);
  return env.binder.value(value, cast);
}

/** The operand as a boolean condition (a boolean field, comparison, function…). */
export function toCondition(op: Operand, env: CompileEnv): string {
  const t = naturalType(op);
  if (t !== 'boolean') throw new BadRequestError(`$filter expressions must be boolean, got ${t}`);
  return toSql(op, env, 'boolean');
}

export const sqlOperand = (sql: string, type: ValueType): Operand => ({ kind: 'sql', sql, type });
