import { customLocationProblem } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/**
 * Rule (spec 2 §5 "Location save needs both latitude and longitude non-empty and numeric"):
 * a manual location is written as a pair of numbers in range, or cleared as a pair ('' as
 * balena-sdk's unsetCustomLocation sends, or null). Checked before the write, so a bad pair
 * changes nothing.
 */
export function checkCustomLocation(body: HookBody<'device', 'POST' | 'PATCH'>): void {
  const problem = customLocationProblem(body);
  if (problem) throw new BadRequestError(problem);
}
