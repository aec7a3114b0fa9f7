import { registerHook } from '../../infra/odata/index.js';
import { addCreatorAsAdministrator } from './creator-becomes-administrator.js';
import { checkOrganizationRename, prepareOrganization } from './organization-handle.js';
import { checkLogoField } from './organization-logo.js';

export function registerOrganizationRules(): void {
  registerHook('organization', 'POST', {
    before: async ({ db, body }) => {
      checkLogoField(body);
      await prepareOrganization(db, body);
    },
    after: ({ db, ids, actor }) => addCreatorAsAdministrator(db, ids[0]!, actor.actorId),
  });
  registerHook('organization', 'PATCH', {
    before: ({ body }) => {
      checkOrganizationRename(body);
      checkLogoField(body);
    },
  });
}
