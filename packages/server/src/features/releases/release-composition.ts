import { checkComposition } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

/** The start of the message of a refused composition; the problems follow, separated by "; ". */
export const UNSUPPORTED_COMPOSITION_MESSAGE = 'Unsupported composition';

/**
 * Rule (issue 14, "the server decides"): a release's composition is one flotilla-agent can
 * apply (`checkComposition` of the model, the rules the CLI and the agent use too). Keys
 * the agent ignores harmlessly are accepted; anything else is refused with every problem
 * named, before anything is written.
 */
export function checkReleaseComposition(body: HookBody<'release', 'POST' | 'PATCH'>): void {
  if (!('composition' in body)) return;
  const { problems } = checkComposition(body.composition, 'release');
  if (problems.length) throw new BadRequestError(`${UNSUPPORTED_COMPOSITION_MESSAGE}: ${problems.join('; ')}`);
}
