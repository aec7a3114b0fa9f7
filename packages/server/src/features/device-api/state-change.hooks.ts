import { model, type ResourceName } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { Rules } from '../../infra/app/context.js';
import { type WriteMethod } from '../../infra/odata/index.js';
import type { DeviceStateChanged, StateChanges } from './state-changes.js';

type Affected = (tx: Db, ids: readonly number[]) => Promise<DeviceStateChanged>;

const column = async (tx: Db, table: string, col: string, ids: readonly number[]): Promise<number[]> =>
  (await tx.query<{ v: number }>(`SELECT DISTINCT "${col}" AS v FROM "${table}" WHERE id = ANY($1::int[]) AND "${col}" IS NOT NULL`, [ids])).rows.map((r) => r.v);

/** For each resource whose writes can change a device's target state: whose state. */
const AFFECTS: Partial<Record<ResourceName, Affected>> = {
  device: async (_db, ids) => ({ deviceIds: [...ids] }),
  application: async (_db, ids) => ({ applicationIds: [...ids] }),
  release: async (tx, ids) => ({ applicationIds: await column(tx, 'release', 'belongs_to__application', ids) }),
  // Deleting a service takes its images out of every release (cascade, no hooks of their own).
  service: async (tx, ids) => ({ applicationIds: await column(tx, 'service', 'application', ids) }),
  image__is_part_of__release: async (tx, ids) => ({
    applicationIds: (
      await tx.query<{ v: number }>(
        'SELECT DISTINCT r.belongs_to__application AS v FROM image__is_part_of__release ri JOIN release r ON r.id = ri.is_part_of__release WHERE ri.id = ANY($1::int[])',
        [ids],
      )
    ).rows.map((r) => r.v),
  }),
  image: async (tx, ids) => ({
    applicationIds: (
      await tx.query<{ v: number }>('SELECT DISTINCT s.application AS v FROM image i JOIN service s ON s.id = i.is_a_build_of__service WHERE i.id = ANY($1::int[])', [ids])
    ).rows.map((r) => r.v),
  }),
  application_environment_variable: async (tx, ids) => ({ applicationIds: await column(tx, 'application_environment_variable', 'application', ids) }),
  application_config_variable: async (tx, ids) => ({ applicationIds: await column(tx, 'application_config_variable', 'application', ids) }),
  service_environment_variable: async (tx, ids) => ({
    applicationIds: (
      await tx.query<{ v: number }>(
        'SELECT DISTINCT s.application AS v FROM service_environment_variable x JOIN service s ON s.id = x.service WHERE x.id = ANY($1::int[])',
        [ids],
      )
    ).rows.map((r) => r.v),
  }),
  device_environment_variable: async (tx, ids) => ({ deviceIds: await column(tx, 'device_environment_variable', 'device', ids) }),
  device_config_variable: async (tx, ids) => ({ deviceIds: await column(tx, 'device_config_variable', 'device', ids) }),
  device_service_environment_variable: async (tx, ids) => ({
    deviceIds: (
      await tx.query<{ v: number }>(
        'SELECT DISTINCT si.device AS v FROM device_service_environment_variable x JOIN service_install si ON si.id = x.service_install WHERE x.id = ANY($1::int[])',
        [ids],
      )
    ).rows.map((r) => r.v),
  }),
};

/**
 * Rule (issue 5 contract): a committed write that can change what a device should run
 * (a pin, a move or rename, a fleet's target release, a release, a variable) publishes
 * `device-state:changed` naming the devices or fleets concerned. Rows are looked up in
 * `after` for POST/PATCH and in `before` for DELETE (they are gone afterwards).
 */
export function registerStateChangeRules(rules: Rules, changes: StateChanges): void {
  for (const [resource, affected] of Object.entries(AFFECTS) as [ResourceName, Affected][]) {
    if (!(resource in model)) continue;
    for (const method of ['POST', 'PATCH'] as WriteMethod[]) {
      rules.register(resource, method, {
        after: async ({ tx, ids }) => {
          if (ids.length) changes.publish(tx, await affected(tx, ids));
        },
      });
    }
    rules.register(resource, 'DELETE', {
      before: async ({ tx, ids }) => {
        if (ids.length) changes.publish(tx, await affected(tx, ids));
      },
    });
  }
}
