import type { AuditedVariableResource, Row, VariableChangeAction } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';

/** The history's hand-written SQL (variable-history.hooks.ts). */

/** A variable row with the fleet, device and service it belongs to. */
export interface VariableInContext {
  id: number;
  name: string;
  value: string;
  application: number;
  device: number | null;
  service: number | null;
}

/** Per resource: the FROM clause that gives each variable `v` its fleet, device and service. */
const CONTEXT: Record<AuditedVariableResource, string> = {
  application_config_variable: `SELECT v.id, v.name, v.value, v.application, NULL::int AS device, NULL::int AS service FROM application_config_variable v`,
  application_environment_variable: `SELECT v.id, v.name, v.value, v.application, NULL::int AS device, NULL::int AS service FROM application_environment_variable v`,
  service_environment_variable: `SELECT v.id, v.name, v.value, s.application, NULL::int AS device, v.service
       FROM service_environment_variable v JOIN service s ON s.id = v.service`,
  device_config_variable: `SELECT v.id, v.name, v.value, d.belongs_to__application AS application, v.device, NULL::int AS service
       FROM device_config_variable v JOIN device d ON d.id = v.device`,
  device_environment_variable: `SELECT v.id, v.name, v.value, d.belongs_to__application AS application, v.device, NULL::int AS service
       FROM device_environment_variable v JOIN device d ON d.id = v.device`,
  device_service_environment_variable: `SELECT v.id, v.name, v.value, d.belongs_to__application AS application, si.device, si.installs__service AS service
       FROM device_service_environment_variable v JOIN service_install si ON si.id = v.service_install JOIN device d ON d.id = si.device`,
};

/** The variables `ids` of `resource` with their fleet, device and service, in id order. */
export async function selectVariablesInContext(db: Db, resource: AuditedVariableResource, ids: readonly number[]): Promise<VariableInContext[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<VariableInContext>(`${CONTEXT[resource]} WHERE v.id = ANY($1::int[]) ORDER BY v.id`, [ids]);
  return rows;
}

/** Who acted, as the history names them: a user, a device, an API key of another kind. */
export async function selectActorIdentity(
  db: Db,
  actorId: number,
  apiKeyId: number | undefined,
): Promise<{ user_id: number | null; username: string | null; is_device: boolean; key_name: string | null }> {
  const { rows } = await db.query<{ user_id: number | null; username: string | null; is_device: boolean; key_name: string | null }>(
    `SELECT u.id AS user_id, u.username,
            EXISTS (SELECT 1 FROM device d WHERE d.actor = $1) AS is_device,
            (SELECT k.name FROM api_key k WHERE k.id = $2 AND k.is_of__actor = $1) AS key_name
       FROM (SELECT 1) one LEFT JOIN "user" u ON u.actor = $1`,
    [actorId, apiKeyId ?? null],
  );
  return rows[0]!;
}

export type VariableChangeRow = Pick<
  Row<'variable_change'>,
  'application' | 'device' | 'service' | 'variable_kind' | 'name' | 'action' | 'old_value' | 'new_value' | 'actor' | 'actor_name'
> & { action: VariableChangeAction };

/** Appends history rows (one statement). */
export async function insertVariableChanges(db: Db, changes: readonly VariableChangeRow[]): Promise<void> {
  if (changes.length === 0) return;
  const cols = ['application', 'device', 'service', 'variable_kind', 'name', 'action', 'old_value', 'new_value', 'actor', 'actor_name'] as const;
  const values: unknown[] = [];
  const tuples = changes.map((c) => `(${cols.map((col) => `$${values.push(c[col])}`).join(', ')})`);
  await db.query(`INSERT INTO variable_change (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, values);
}
