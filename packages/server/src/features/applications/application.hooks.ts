import { registerHook } from '../../infra/odata/index.js';
import { actorsOfFleets } from './application-delete.js';
import { checkApplicationRename, prepareApplication, updateApplicationSlugs } from './application-identity.js';
import { checkApplicationTransfer } from './application-transfer.js';
import { checkChangeType } from './change-type.js';
import { checkDefaultDeviceTypeChange } from './default-device-type.js';
import { checkDefaultDeviceTypeAvailable, checkNewFleetDeviceType } from './device-type-availability.js';
import { checkLegacyPublic, checkLegacyRename } from './legacy-application.js';
import { checkSupportAccessExpiry } from './support-access.js';
import { checkTransferConditions } from './transfer-conditions.js';
import { deleteUnusedActors } from '../devices/device-actor.js';

export function registerApplicationRules(): void {
  registerHook('application', 'POST', {
    before: async ({ db, body }) => {
      await prepareApplication(db, body);
      await checkNewFleetDeviceType(db, body);
      checkSupportAccessExpiry(body);
    },
  });
  registerHook('application', 'PATCH', {
    before: async ({ db, actor, body, ids }) => {
      await checkApplicationRename(body);
      await checkLegacyRename(db, body, ids);
      await checkApplicationTransfer(db, actor, body, ids);
      await checkChangeType(db, actor, body, ids);
      await checkTransferConditions(db, body, ids);
      await checkLegacyPublic(db, body, ids);
      await checkDefaultDeviceTypeChange(db, body, ids);
      await checkDefaultDeviceTypeAvailable(db, body, ids);
      checkSupportAccessExpiry(body);
    },
    after: async ({ db, body, ids }) => {
      if ('app_name' in body || 'organization' in body) await updateApplicationSlugs(db, ids);
    },
  });
  // Deleting a fleet deletes its devices, releases and tags (FK cascade); the actors of the
  // fleet and its devices, and with them their API keys, go afterwards.
  const doomed = new WeakMap<object, number[]>();
  registerHook('application', 'DELETE', {
    before: async (args) => {
      doomed.set(args.body, await actorsOfFleets(args.db, args.ids));
    },
    after: async (args) => {
      await deleteUnusedActors(args.db, doomed.get(args.body) ?? []);
    },
  });
}
