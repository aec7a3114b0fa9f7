import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../errors.js';

/** How deep a JSON body may nest before it is refused (no route reads deeper than a few levels). */
export const MAX_INPUT_DEPTH = 32;

// U+0000 (PostgreSQL text cannot hold it: 22021) and UTF-16 halves without their pair
// (they cannot be encoded as UTF-8 and would be stored as U+FFFD).
// eslint-disable-next-line no-control-regex
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first problem of a parsed input value, or undefined: bad text in keys or strings, too deep. */
export function unsafeInput(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return UNSAFE.test(value) ? 'text may not contain NUL characters or unpaired surrogates' : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  // Only what JSON parsing makes is walked: a raw body handed on as a stream (upload parts)
  // or a file the server stored for a multipart write is the route's own input.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return undefined;
  if (depth >= MAX_INPUT_DEPTH) return `input is nested deeper than ${MAX_INPUT_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (const v of value) {
      const problem = unsafeInput(v, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(value)) {
    const problem = unsafeInput(k) ?? unsafeInput(v, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Refuses, on every route, before validation and before any handler, input that no column
 * or query can take: NUL characters and unpaired surrogates in any string of the body,
 * query string or path parameters, and absurdly nested bodies (400 in the dialect's shape).
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const problem = unsafeInput(request.params) ?? unsafeInput(request.query) ?? unsafeInput(request.body);
    done(problem ? new BadRequestError(`Invalid request: ${problem}`) : undefined);
  });
}
