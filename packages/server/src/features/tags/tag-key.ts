import { tagKeyProblem, type TagResource } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (dialect §3 "Key/value tables"): a new tag's key is not in a reserved namespace
 * (io.resin., io.balena.) and holds no whitespace. tag_key is writable on create only, so
 * POST is the one write to check.
 */
export function checkTagKey(body: HookBody<TagResource, 'POST'>): void {
  const key = body.tag_key;
  const problem = tagKeyProblem(typeof key === 'string' ? key : undefined);
  if (problem) throw new BadRequestError(problem);
}
