import { TAG_RESOURCES } from '@flotilla/model';
import { registerHook } from '../../infra/odata/index.js';
import { checkTagKey } from './tag-key.js';

/** Tags of devices, fleets and releases: key rules on create (dialect §3). */
export function registerTagRules(): void {
  for (const resource of TAG_RESOURCES) {
    registerHook(resource, 'POST', { before: ({ body }) => checkTagKey(body) });
  }
}
