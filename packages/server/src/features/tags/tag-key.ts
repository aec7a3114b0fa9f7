import { tagKeyProblem } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule (dialect §3 "Key/value tables"): a new tag's key is not in a reserved namespace
 * (io.resin., io.balena.) and holds no whitespace. tag_key is writable on create only, so
 * POST is the one write to check.
 */
export function checkTagKey(body: Record<string, unknown>): void {
  const key = body.tag_key;
  const problem = tagKeyProblem(typeof key === 'string' ? key : undefined);
  if (problem) throw new BadRequestError(problem);
}
