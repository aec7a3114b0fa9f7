import { registerHook } from '../../infra/odata/index.js';
import { checkApplicationRename, prepareApplication, updateApplicationSlugs } from './application-identity.js';
import { checkApplicationTransfer } from './application-transfer.js';

export function registerApplicationRules(): void {
  registerHook('application', 'POST', { before: ({ db, body }) => prepareApplication(db, body) });
  registerHook('application', 'PATCH', {
    before: async ({ db, actor, body, ids }) => {
      checkApplicationRename(body);
      await checkApplicationTransfer(db, actor, body, ids);
    },
    after: async ({ db, body, ids }) => {
      if ('app_name' in body || 'organization' in body) await updateApplicationSlugs(db, ids);
    },
  });
}
