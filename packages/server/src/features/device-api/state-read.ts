import { effectiveConfig, effectiveEnvironment, effectiveValues } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead, type DataContext } from '../../infra/odata/index.js';
import { buildFleetPart } from './target-state.js';

/**
 * Target state read by someone other than the device (balena-sdk
 * `device.getSupervisorTargetState` and `getSupervisorTargetStateForApp` with a user's session
 * or API key). Who may read is the data API's read rule on the device or fleet, asked with
 * the caller's own permissions; what is read then is the same target state the device gets.
 * Anything the caller cannot see is balena's 401 for these endpoints, whether it exists or not.
 */

const literal = (s: string) => `'${encodeURIComponent(s.replaceAll("'", "''"))}'`;

function contextOf(actor: Actor | null): DataContext {
  if (!actor) throw new UnauthorizedError();
  return { actorId: actor.actorId, permissions: actor.permissions };
}

/** The id of device `uuid` when `actor` may read it; 401 otherwise. */
export async function readableDeviceId(db: Db, actor: Actor | null, uuid: string): Promise<number> {
  const [device] = await odataRead<{ id: number }>(db, contextOf(actor), `/device?$select=id&$filter=uuid eq ${literal(uuid)}`);
  if (!device) throw new UnauthorizedError();
  return device.id;
}

interface FleetRow {
  id: number;
  uuid: string;
  app_name: string;
  should_be_running__release: { __id: number } | null;
}

/**
 * `GET /device/v3/fleet/{uuid}/state/?releaseUuid=<commit>` (open-balena-api's fleet state
 * v3): what a device of the fleet with no variables of its own would run, as
 * `{ <fleet uuid>: { name, config, apps: { <fleet uuid>: { id, name, class, releases? } } } }`,
 * on the fleet's target release, or on the successful release of the fleet whose commit is
 * `releaseUuid` (balena names releases by commit there).
 */
export async function fleetTargetState(db: Db, actor: Actor | null, fleetUuid: string, releaseUuid: string | undefined): Promise<unknown> {
  const ctx = contextOf(actor);
  const [fleet] = await odataRead<FleetRow>(db, ctx, `/application?$select=id,uuid,app_name,should_be_running__release&$filter=uuid eq ${literal(fleetUuid)}`);
  if (!fleet) throw new UnauthorizedError();
  let target = fleet.should_be_running__release?.__id ?? null;
  if (releaseUuid) {
    const [release] = await odataRead<{ id: number }>(
      db,
      ctx,
      `/release?$select=id&$filter=commit eq ${literal(releaseUuid)} and belongs_to__application eq ${fleet.id} and status eq 'success'`,
    );
    if (!release) throw new UnauthorizedError();
    target = release.id;
  }
  const part = await buildFleetPart(db, fleet.id, target);
  if (!part) throw new UnauthorizedError();
  const { releases: _none, ...app } = part.app;
  if (part.release) {
    const services: Record<string, unknown> = {};
    for (const s of part.release.services) {
      const { id, image_id, image, running, ...rest } = s.entry;
      services[s.name] = { id, image_id, image, running, environment: effectiveValues(effectiveEnvironment(s.layers)), ...rest };
    }
    app.releases = { [part.release.commit]: { id: part.release.id, services } };
  }
  return { [fleet.uuid]: { name: fleet.app_name, config: effectiveValues(effectiveConfig(part.config, {}), { sentOnly: true }), apps: { [fleet.uuid]: app } } };
}
