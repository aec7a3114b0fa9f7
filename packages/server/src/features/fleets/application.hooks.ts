import type { Rules } from '../../infra/app/context.js';
import { actorsOfFleetsAndDevices } from '../../infra/auth/actor.repository.js';
import { deleteUnusedActors } from './application-delete.js';
import { checkApplicationRename, prepareApplication, updateApplicationSlugs } from './application-identity.js';
import { checkApplicationTransfer } from './application-transfer.js';
import { checkChangeType } from './change-type.js';
import { checkDefaultDeviceTypeChange } from './default-device-type.js';
import { checkDefaultDeviceTypeAvailable, checkNewFleetDeviceType } from './device-type-availability.js';
import { checkLegacyPublic, checkLegacyRename } from './legacy-application.js';
import { checkSupportAccessExpiry } from './support-access.js';
import { checkTransferConditions } from './transfer-conditions.js';

export function registerApplicationRules(rules: Rules): void {
  rules.register('application', 'POST', {
    before: async ({ tx, app, body }) => {
      await prepareApplication(tx, body);
      await checkNewFleetDeviceType(tx, body);
      checkSupportAccessExpiry(body, app.clock());
    },
  });
  rules.register('application', 'PATCH', {
    before: async ({ tx, app, actor, body, ids }) => {
      await checkApplicationRename(body);
      await checkLegacyRename(tx, body, ids);
      await checkApplicationTransfer(tx, actor, body, ids);
      await checkChangeType(tx, actor, body, ids);
      await checkTransferConditions(tx, body, ids);
      await checkLegacyPublic(tx, body, ids);
      await checkDefaultDeviceTypeChange(tx, body, ids);
      await checkDefaultDeviceTypeAvailable(tx, body, ids);
      checkSupportAccessExpiry(body, app.clock());
    },
    after: async ({ tx, body, ids }) => {
      if ('app_name' in body || 'organization' in body) await updateApplicationSlugs(tx, ids);
    },
  });
  // Deleting a fleet deletes its devices, releases and tags (FK cascade); the actors of the
  // fleet and its devices, and with them their API keys, go afterwards.
  const doomed = new WeakMap<object, number[]>();
  rules.register('application', 'DELETE', {
    before: async (args) => {
      doomed.set(args.body, await actorsOfFleetsAndDevices(args.tx, args.ids));
    },
    after: async (args) => {
      await deleteUnusedActors(args.tx, doomed.get(args.body) ?? []);
    },
  });
}
