import { registerHook } from '../../infra/odata/index.js';
import { checkSupportAccessExpiry } from '../applications/support-access.js';
import { actorsOfDevices, deleteUnusedActors } from './device-actor.js';
import { checkDeviceArchitecture } from './device-architecture.js';
import { checkDeactivation } from './device-deactivate.js';
import { checkCustomLocation } from './device-location.js';
import { checkDeviceName, prepareDevice } from './device-identity.js';
import { checkOsReleases } from './device-os-releases.js';
import { checkDevicePin, dropPinsOfOldFleet } from './device-pin.js';
import { checkRunningRelease, deriveReportedFields } from './device-reported.js';

/**
 * Device core rules (spec 2 §3, §5 Devices). Checks that look at other rows (fleet, device
 * type, release) run in `after`, on the rows as written: by then the engine has checked the
 * create rule (POST) or re-checked a changed fleet against the update rule (PATCH, a move
 * needs operator rights on both fleets), so a refusal never tells a caller anything about a
 * fleet they cannot write.
 */
export function registerDeviceRules(): void {
  registerHook('device', 'POST', {
    before: async ({ db, body }) => {
      await prepareDevice(db, body);
      deriveReportedFields(body);
      checkSupportAccessExpiry(body);
      checkCustomLocation(body);
    },
    after: async ({ db, body, ids }) => {
      await checkDeviceArchitecture(db, 'POST', body, ids);
      await checkDevicePin(db, body, ids);
      await checkRunningRelease(db, body, ids);
      await checkOsReleases(db, body, ids);
    },
  });
  registerHook('device', 'PATCH', {
    before: async ({ db, body, ids }) => {
      checkDeviceName(body);
      deriveReportedFields(body);
      checkSupportAccessExpiry(body);
      checkCustomLocation(body);
      await checkDeactivation(db, body, ids);
    },
    after: async ({ db, body, ids }) => {
      await checkDeviceArchitecture(db, 'PATCH', body, ids);
      await dropPinsOfOldFleet(db, body, ids);
      await checkDevicePin(db, body, ids);
      await checkRunningRelease(db, body, ids);
      await checkOsReleases(db, body, ids);
    },
  });
  const doomed = new WeakMap<object, number[]>();
  registerHook('device', 'DELETE', {
    before: async ({ db, body, ids }) => {
      doomed.set(body, await actorsOfDevices(db, ids));
    },
    after: async ({ db, body }) => {
      await deleteUnusedActors(db, doomed.get(body) ?? []);
    },
  });
}
