import {
  classifyOsUpdate,
  compareParsedOsVersions,
  isOsUpdateAllowed,
  OS_UPDATE_ACTION,
  OS_UPDATE_START_FAILED,
  parseOsVersion,
  type AvailableOsVersion,
  type OsUpdateParams,
  type OsUpdateTriggered,
} from '@flotilla/model';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ForbiddenError, HttpError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import type { AppContext } from '../../infra/app/context.js';
import { asRoot, odataActionableIds, odataPatch, odataRead, type DataContext } from '../../infra/odata/index.js';
import type { ActionRelay } from '../actions/index.js';
import { selectCatalogueOsReleases, selectOsUpdateDevice, type CatalogueOsReleaseRow } from './os-update.repository.js';

/**
 * Starting a host OS update (spec 2 §4 "Starting an update", §7 startOsUpdate; issue 17):
 * balena-sdk's `device.startOsUpdate` through the actions service. The server decides with
 * the model's rules (classifyOsUpdate: online, a balenaOS the catalogue can update, the
 * target offered for the type, no downgrade or forbidden ESR switch, an update kind from the
 * current version), sets the device's host OS release (`should_be_operated_by__release`,
 * through the data API with the caller's rights, so the device write rules apply too), and
 * asks the device over its cloud link (`os-update`). A device that refuses (no OS update
 * hook, cannot reboot, already updating) or does not answer gets its previous release back.
 * Every refusal is 'Cannot start the update process: <why>'; nothing is changed by one.
 */

export const DEVICE_NOT_FOUND = 'Device not found';
const refused = (why: string) => `${OS_UPDATE_START_FAILED}: ${why}`;
const literal = (s: string) => `'${encodeURIComponent(s.replaceAll("'", "''"))}'`;

export interface OsUpdateServiceOptions {
  db: Db;
  app: AppContext;
  relay: ActionRelay;
  log: FastifyBaseLogger;
  /**
   * Called with the device's id once the caller is known to see it and may update it, before
   * anything is checked or written (billing: a frozen organization's devices start no OS update, 402).
   */
  beforeStart?: (deviceId: number) => Promise<void>;
}

/** The catalogue release `targetVersion` names for a device: same version, the target's variant, else the device's, else prod. */
export function pickTargetRelease(releases: readonly CatalogueOsReleaseRow[], targetVersion: string, deviceVariant: string | null): CatalogueOsReleaseRow | undefined {
  const target = parseOsVersion(targetVersion);
  if (!target) return undefined;
  const variant = target.variant ?? (deviceVariant === 'dev' || deviceVariant === 'prod' ? deviceVariant : 'prod');
  return releases.find((r) => {
    const p = parseOsVersion(r.raw_version);
    return p !== undefined && compareParsedOsVersions(p, target) === 0 && (p.variant ?? 'prod') === variant;
  });
}

export class OsUpdates {
  constructor(private readonly o: OsUpdateServiceOptions) {}

  async start(actor: Actor | null, uuid: string, targetVersion: string | undefined): Promise<OsUpdateTriggered> {
    if (!actor) throw new UnauthorizedError();
    if (actor.kind !== 'user') throw new ForbiddenError(refused('only a user may start an OS update'));
    const ctx: DataContext = { actorId: actor.actorId, permissions: actor.permissions };
    const { db } = this.o;
    const [seen] = await odataRead<{ id: number }>(db, ctx, `/device?$select=id&$filter=uuid eq ${literal(uuid)}`);
    if (!seen) throw new NotFoundError(DEVICE_NOT_FOUND);
    // Spec 2 §6: an OS update is resin.device.update (operators and up).
    const updatable = await odataActionableIds(db, ctx, `/device?$filter=id eq ${seen.id}`, 'update');
    if (updatable.length !== 1) throw new ForbiddenError(refused('you are not allowed to update this device'));
    await this.o.beforeStart?.(seen.id);
    if (!targetVersion) throw new BadRequestError(refused('parameters.target_version is required'));
    const device = await selectOsUpdateDevice(db, seen.id);
    if (!device) throw new NotFoundError(DEVICE_NOT_FOUND);
    const releases = await selectCatalogueOsReleases(db, device.device_type_id);
    const available: AvailableOsVersion[] = releases.map((r) => ({ raw_version: r.raw_version, osType: r.esr ? 'esr' : 'default', ...(r.based_on ? { basedOnVersion: r.based_on } : {}) }));
    const facts = { deviceType: device.device_type, isOnline: device.is_online, osVersion: device.os_version, osVariant: device.os_variant };
    const c = classifyOsUpdate(facts, targetVersion, available);
    if (!isOsUpdateAllowed(c)) throw new BadRequestError(refused(c.reason ?? (c.state === 'upToDate' ? 'the device already runs this version' : c.state)));
    const release = pickTargetRelease(releases, targetVersion, device.os_variant);
    if (!release) throw new BadRequestError(refused(`OS version ${targetVersion} is not available for this device type`));

    // The device's host OS release, written as the caller (the device rules of features/devices apply).
    try {
      await odataPatch(this.o.app, db, ctx, `/device(${device.id})`, { should_be_operated_by__release: release.id });
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400) throw new BadRequestError(refused(err.message));
      throw err;
    }
    const params: OsUpdateParams = {
      targetVersion: release.raw_version,
      version: release.version ?? release.raw_version.replace(/\.(prod|dev)$/, ''),
      variant: parseOsVersion(release.raw_version)?.variant ?? null,
      kind: c.kind!,
      takeover: c.takeover,
      image: release.image,
    };
    let answer: { status: number; body: unknown };
    try {
      answer = await this.o.relay.request(device.id, 'os-update', params as unknown as Record<string, unknown>);
    } catch (err) {
      answer = { status: err instanceof HttpError ? err.statusCode : 502, body: err instanceof Error ? err.message : String(err) };
    }
    if (answer.status !== 200) {
      await this.restore(ctx, device.id, device.host_release, release.id);
      throw new BadRequestError(refused(deviceReason(answer)));
    }
    return { status: 'triggered', action: OS_UPDATE_ACTION, parameters: { target_version: targetVersion }, last_run: Date.now() };
  }

  /** Puts back the host OS release a refused update replaced (unless something else changed it meanwhile). */
  private async restore(ctx: DataContext, deviceId: number, previous: number | null, written: number): Promise<void> {
    try {
      await odataPatch(this.o.app, this.o.db, asRoot(ctx), `/device?$filter=id eq ${deviceId} and should_be_operated_by__release eq ${written}`, { should_be_operated_by__release: previous });
    } catch (err) {
      this.o.log.error({ err, deviceId }, 'os update: could not restore the previous host OS release');
    }
  }
}

/** Why the device did not start: its supervisor-shaped error, the relay's message, or its status. */
export function deviceReason(answer: { status: number; body: unknown }): string {
  if (answer.status === 504) return 'the device did not answer';
  const body = answer.body as { Error?: unknown } | string | null;
  if (typeof body === 'string' && body !== '') return answer.status === 502 && body === 'The device disconnected' ? 'the device disconnected' : body;
  if (body && typeof body === 'object' && typeof body.Error === 'string' && body.Error !== '') return body.Error;
  return `the device answered HTTP ${answer.status}`;
}
