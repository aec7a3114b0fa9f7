import { TAG_RESOURCES } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import { checkTagKey } from './tag-key.js';

/** Tags of devices, fleets and releases: key rules on create (dialect §3). */
export function registerTagRules(rules: Rules): void {
  for (const resource of TAG_RESOURCES) {
    rules.register(resource, 'POST', { before: ({ body }) => checkTagKey(body) });
  }
}
