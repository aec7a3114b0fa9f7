import { BadRequestError } from '../errors.js';
import type { ValueType } from './resources.js';
import { naturalType, sqlOperand, toSql, typeError, type CompileEnv, type Operand } from './operand.js';

/**
 * The $filter functions of the balena dialect (§2.2) as PostgreSQL. OData positions are
 * 0-based where SQL's are 1-based; date parts are taken in UTC so results do not depend on
 * the session time zone.
 */

type Impl = (args: Operand[], env: CompileEnv, name: string) => Operand;

const NULL_TYPE: Partial<Record<ValueType | 'temporal', string>> = {
  text: 'text',
  number: 'numeric',
  boolean: 'boolean',
  duration: 'interval',
  temporal: 'timestamptz',
  datetime: 'timestamptz',
  date: 'date',
  time: 'time',
};

/** An argument's SQL, checking it has (or, for a literal, can have) the expected type. */
function arg(op: Operand | undefined, env: CompileEnv, name: string, want: ValueType | 'temporal'): string {
  if (op === undefined) throw new BadRequestError(`Missing argument to ${name}()`);
  // A typed null: PostgreSQL cannot choose between a function's overloads for a bare NULL
  // (EXTRACT(EPOCH FROM NULL)).
  if (op.kind === 'null') return `NULL::${NULL_TYPE[want] ?? 'text'}`;
  if (want === 'temporal') {
    const t = naturalType(op);
    if (op.kind === 'sql' && t !== 'datetime' && t !== 'date') throw typeError(`${name}() expects a date, got ${t}`);
    return toSql(op, env, op.kind === 'bind' && t === 'text' ? 'datetime' : t);
  }
  if (op.kind === 'sql' && op.type !== want) throw typeError(`${name}() expects ${want}, got ${op.type}`);
  return toSql(op, env, want);
}

const text = (fn: (a: string[]) => string, arity: number): Impl => (args, env, name) =>
  sqlOperand(fn(args.slice(0, arity).map((a) => arg(a, env, name, 'text'))), 'text');

/** A date part; a `date` (no time) has no zone to convert from. */
function datePart(field: string, round = false): Impl {
  return (args, env, name) => {
    const a = arg(args[0], env, name, 'temporal');
    const source = args[0] && naturalType(args[0]) === 'date' ? a : `(${a} AT TIME ZONE 'UTC')`;
    const extract = `EXTRACT(${field} FROM ${source})`;
    return sqlOperand(`${round ? `floor(${extract})` : extract}::integer`, 'number');
  };
}

function utc(args: Operand[], env: CompileEnv, name: string): string {
  const a = arg(args[0], env, name, 'temporal');
  return args[0] && naturalType(args[0]) === 'date' ? a : `(${a} AT TIME ZONE 'UTC')`;
}

const FUNCTIONS: Record<string, Impl> = {
  contains: (args, env, n) => sqlOperand(`(strpos(${arg(args[0], env, n, 'text')}, ${arg(args[1], env, n, 'text')}) > 0)`, 'boolean'),
  substringof: (args, env, n) => sqlOperand(`(strpos(${arg(args[1], env, n, 'text')}, ${arg(args[0], env, n, 'text')}) > 0)`, 'boolean'),
  startswith: (args, env, n) => sqlOperand(`starts_with(${arg(args[0], env, n, 'text')}, ${arg(args[1], env, n, 'text')})`, 'boolean'),
  endswith: (args, env, n) => {
    const suffix = arg(args[1], env, n, 'text');
    return sqlOperand(`(right(${arg(args[0], env, n, 'text')}, char_length(${suffix})) = ${suffix})`, 'boolean');
  },
  length: (args, env, n) => sqlOperand(`char_length(${arg(args[0], env, n, 'text')})`, 'number'),
  indexof: (args, env, n) => sqlOperand(`(strpos(${arg(args[0], env, n, 'text')}, ${arg(args[1], env, n, 'text')}) - 1)`, 'number'),
  substring: (args, env, n) => {
    const s = arg(args[0], env, n, 'text');
    const from = `(${arg(args[1], env, n, 'number')}) + 1`;
    const sql = args.length > 2 ? `substr(${s}, ${from}, ${arg(args[2], env, n, 'number')})` : `substr(${s}, ${from})`;
    return sqlOperand(sql, 'text');
  },
  tolower: text(([a]) => `lower(${a})`, 1),
  toupper: text(([a]) => `upper(${a})`, 1),
  trim: text(([a]) => `btrim(${a})`, 1),
  concat: text(([a, b]) => `(${a} || ${b})`, 2),
  replace: text(([a, b, c]) => `replace(${a}, ${b}, ${c})`, 3),
  year: datePart('YEAR'),
  month: datePart('MONTH'),
  day: datePart('DAY'),
  hour: datePart('HOUR'),
  minute: datePart('MINUTE'),
  second: datePart('SECOND', true),
  fractionalseconds: (args, env, n) => sqlOperand(`(EXTRACT(SECOND FROM ${utc(args, env, n)}) - floor(EXTRACT(SECOND FROM ${utc(args, env, n)})))`, 'number'),
  date: (args, env, n) => sqlOperand(`${utc(args, env, n)}::date`, 'date'),
  time: (args, env, n) => sqlOperand(`${utc(args, env, n)}::time`, 'time'),
  now: () => sqlOperand('now()', 'datetime'),
  mindatetime: () => sqlOperand(`'-infinity'::timestamptz`, 'datetime'),
  maxdatetime: () => sqlOperand(`'infinity'::timestamptz`, 'datetime'),
  totalseconds: (args, env, n) => sqlOperand(`EXTRACT(EPOCH FROM ${arg(args[0], env, n, 'duration')})`, 'number'),
  round: (args, env, n) => sqlOperand(`round(${arg(args[0], env, n, 'number')})`, 'number'),
  floor: (args, env, n) => sqlOperand(`floor(${arg(args[0], env, n, 'number')})`, 'number'),
  ceiling: (args, env, n) => sqlOperand(`ceil(${arg(args[0], env, n, 'number')})`, 'number'),
};

export function callFunction(method: string, args: Operand[], env: CompileEnv): Operand {
  const impl = Object.hasOwn(FUNCTIONS, method) ? FUNCTIONS[method] : undefined;
  if (!impl) throw new BadRequestError(`Unsupported function in $filter: ${method}`);
  return impl(args, env, method);
}
