import { OS_RELEASE_MESSAGES } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import { checkSupportAccessExpiry, deleteUnusedActors } from '../fleets/index.js';
import { actorsOfDevices } from '../../infra/auth/actor.repository.js';
import { checkDeviceArchitecture } from './device-architecture.js';
import { checkDeactivation } from './device-deactivate.js';
import { checkCustomLocation } from './device-location.js';
import { checkDeviceName, prepareDevice } from './device-identity.js';
import { checkOsReleases, SUPERVISOR_RELEASE_NOT_FOR_DEVICE } from './device-os-releases.js';
import { checkDevicePin, dropPinsOfOldFleet } from './device-pin.js';
import { checkRunningRelease, deriveReportedFields } from './device-reported.js';

/**
 * Device core rules (spec 2 §3, §5 Devices). Checks that look at other rows (fleet, device
 * type, release) run in `after`, on the rows as written: by then the engine has checked the
 * create rule (POST) or re-checked a changed fleet against the update rule (PATCH, a move
 * needs operator rights on both fleets), so a refusal never tells a caller anything about a
 * fleet they cannot write.
 */
export function registerDeviceRules(rules: Rules): void {
  // Issue 17: a host OS or supervisor release that is not readable (another organization's
  // private release, or none at all) is refused like any release outside the catalogue, so
  // the answer does not tell whether it exists.
  rules.registerReferenceMessage('device', 'should_be_operated_by__release', OS_RELEASE_MESSAGES.notForType);
  rules.registerReferenceMessage('device', 'should_be_managed_by__release', SUPERVISOR_RELEASE_NOT_FOR_DEVICE);
  rules.register('device', 'POST', {
    before: async ({ tx, app, body }) => {
      await prepareDevice(tx, body);
      deriveReportedFields(body, new Date(app.clock()));
      checkSupportAccessExpiry(body, app.clock());
      checkCustomLocation(body);
    },
    after: async ({ tx, body, ids }) => {
      await checkDeviceArchitecture(tx, 'POST', body, ids);
      await checkDevicePin(tx, body, ids);
      await checkRunningRelease(tx, body, ids);
      await checkOsReleases(tx, body, ids);
    },
  });
  rules.register('device', 'PATCH', {
    before: async ({ tx, app, body, ids }) => {
      checkDeviceName(body);
      deriveReportedFields(body, new Date(app.clock()));
      checkSupportAccessExpiry(body, app.clock());
      checkCustomLocation(body);
      await checkDeactivation(tx, body, ids);
    },
    after: async ({ tx, body, ids }) => {
      await checkDeviceArchitecture(tx, 'PATCH', body, ids);
      await dropPinsOfOldFleet(tx, body, ids);
      await checkDevicePin(tx, body, ids);
      await checkRunningRelease(tx, body, ids);
      await checkOsReleases(tx, body, ids);
    },
  });
  const doomed = new WeakMap<object, number[]>();
  rules.register('device', 'DELETE', {
    before: async ({ tx, body, ids }) => {
      doomed.set(body, await actorsOfDevices(tx, ids));
    },
    after: async ({ tx, body }) => {
      await deleteUnusedActors(tx, doomed.get(body) ?? []);
    },
  });
}
