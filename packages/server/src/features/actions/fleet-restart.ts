import { DEVICE_FROZEN_MESSAGE, DEVICE_RULE_MESSAGES, supervisorActionProblem } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { NotFoundError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import type { ActionRelay } from './action-relay.js';
import { selectActionFacts } from './actions.repository.js';
import { dataContextOf, NO_ONLINE_DEVICES, updatableDeviceIds } from './device-action-access.js';

/**
 * `POST /application/{id}/restart` (dialect §2): restart the fleet's services on each of its
 * online devices the caller may update. 200 "OK" when every device answered 2xx; otherwise
 * 207 with each device's answer (the dialect's multi-device status); none online: the
 * supervisor proxy's 404 'No online device(s) found'. A device in local mode answers 400 'not
 * available in local mode' in that list without being asked, and a device frozen by the free
 * allowance (issue 18) answers 402 with the frozen-devices message.
 */
export async function restartFleet(
  db: Db,
  relay: ActionRelay,
  actor: Actor | null,
  fleetId: number,
  /** Called once the caller is known to see the fleet (billing: a frozen organization's fleet restarts nothing, 402). */
  beforeStart?: (fleetId: number) => Promise<void>,
  /** Which of the devices are frozen (billing); they are not asked. */
  frozenIds?: (deviceIds: readonly number[]) => Promise<ReadonlySet<number>>,
): Promise<{ status: number; body: unknown }> {
  const ctx = dataContextOf(actor);
  const [fleet] = await odataRead<{ id: number }>(db, ctx, `/application?$select=id&$filter=id eq ${fleetId}`);
  if (!fleet) throw new NotFoundError('Fleet not found');
  await beforeStart?.(fleet.id);
  const ids = await updatableDeviceIds(db, ctx, `/device?$filter=belongs_to__application eq ${fleetId} and is_online eq true`);
  if (ids.length === 0) throw new NotFoundError(NO_ONLINE_DEVICES);
  // A device the restart does not apply to (local mode) answers the rule's 400 in the 207
  // list, as a device that refused it would; nothing is sent to it.
  const problems = new Map((await selectActionFacts(db, ids)).map((f) => [f.id, supervisorActionProblem('restart', f)]));
  const frozen = (await frozenIds?.(ids)) ?? new Set<number>();
  const answers = await Promise.all(
    ids.map(async (deviceId) => {
      if (frozen.has(deviceId)) return { deviceId, status: 402, body: DEVICE_FROZEN_MESSAGE };
      const problem = problems.get(deviceId);
      if (problem !== undefined) return { deviceId, status: 400, body: DEVICE_RULE_MESSAGES[problem] };
      try {
        return { deviceId, ...(await relay.request(deviceId, 'restart', { appId: fleetId })) };
      } catch (err) {
        const status = typeof (err as { statusCode?: unknown }).statusCode === 'number' ? (err as { statusCode: number }).statusCode : 500;
        return { deviceId, status, body: (err as Error).message };
      }
    }),
  );
  if (answers.every((a) => a.status >= 200 && a.status < 300)) return { status: 200, body: 'OK' };
  return { status: 207, body: answers };
}
