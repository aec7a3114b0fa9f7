import { BadRequestError, ConflictError, HttpError } from '../errors.js';

// SQLSTATE classes a request's values can cause: 22 = data exception (bad input syntax,
// out of range, division by zero, invalid LIMIT…), 54 = program limit (a query nested too
// deeply).
const BAD_VALUE_CLASSES = new Set(['22', '54']);
const BAD_VALUE = new Set([
  '23514', // check constraint (enums)
  '42883', // no such operator/function for these types
  '42804', // datatype mismatch
  '42P18', // indeterminate datatype
]);

interface PgError {
  code?: string;
  message?: string;
  column?: string;
  table?: string;
  constraint?: string;
}

/**
 * Constraints whose violation carries a business rule's own message instead of the
 * generic one (e.g. the partial unique index `release_one_success_per_commit`): an app's
 * rule registry, where features register them with their rules. The status stays the
 * dialect's 409.
 */
export interface ConstraintMessages {
  constraintMessage(constraint: string): string | undefined;
}

/**
 * PostgreSQL errors a request can cause, as the dialect's client errors (with the app's
 * constraint messages, when given). Everything else (connection loss, bugs) stays a 500.
 */
export function translateDbError(err: unknown, messages?: ConstraintMessages): unknown {
  if (err instanceof HttpError) return err;
  const e = err as PgError;
  if (typeof e?.code !== 'string') return err;
  const ruleMessage = e.constraint === undefined ? undefined : messages?.constraintMessage(e.constraint);
  if (ruleMessage !== undefined && (e.code === '23505' || e.code === '23503')) return new ConflictError(ruleMessage);
  if (e.code === '23505') return new ConflictError('Unique key constraint violated');
  if (e.code === '23503') return new ConflictError('Foreign key constraint violated');
  if (e.code === '23502') {
    return new BadRequestError(e.column ? `Field '${e.column}' on resource '${e.table ?? ''}' must not be null` : 'A required field is null');
  }
  if (e.code.startsWith('54')) return new BadRequestError('The query is too complex');
  if (BAD_VALUE.has(e.code) || BAD_VALUE_CLASSES.has(e.code.slice(0, 2))) return new BadRequestError(`Invalid value: ${e.message ?? e.code}`);
  return err;
}

/** Runs a query, rethrowing database errors as HTTP errors where the request caused them. */
export async function withDbErrors<T>(run: () => Promise<T>, messages?: ConstraintMessages): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw translateDbError(err, messages);
  }
}
