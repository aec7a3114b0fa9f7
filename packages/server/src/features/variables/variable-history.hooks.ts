import { AUDITED_VARIABLE_RESOURCES, type AuditedVariableResource } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import type { Db } from '../../infra/db/db.js';
import type { DataContext } from '../../infra/odata/index.js';
import {
  insertVariableChanges,
  selectActorIdentity,
  selectVariablesInContext,
  type VariableChangeRow,
  type VariableInContext,
} from './variable-history.repository.js';

/** Who the history names for a write by `actor`: a user (and their username), a device, an API key, the system. */
async function actorOf(db: Db, actor: DataContext): Promise<Pick<VariableChangeRow, 'actor' | 'actor_name'>> {
  if (actor.actorId === null) return { actor: null, actor_name: 'system' };
  const who = await selectActorIdentity(db, actor.actorId, actor.apiKeyId);
  if (who.user_id !== null && who.username !== null) return { actor: who.user_id, actor_name: who.username };
  if (who.is_device) return { actor: null, actor_name: 'device' };
  return { actor: null, actor_name: `API key ${who.key_name ?? ''}`.trim().slice(0, 255) };
}

const change = (
  resource: AuditedVariableResource,
  v: VariableInContext,
  action: VariableChangeRow['action'],
  old_value: string | null,
  new_value: string | null,
  name = v.name,
): Omit<VariableChangeRow, 'actor' | 'actor_name'> => ({
  application: v.application,
  device: v.device,
  service: v.service,
  variable_kind: resource,
  name,
  action,
  old_value,
  new_value,
});

async function record(db: Db, actor: DataContext, changes: Omit<VariableChangeRow, 'actor' | 'actor_name'>[]): Promise<void> {
  if (changes.length === 0) return;
  const who = await actorOf(db, actor);
  await insertVariableChanges(
    db,
    changes.map((c) => ({ ...c, ...who })),
  );
}

/**
 * Rule (issue 16 item 2): every create, update and delete of a fleet, fleet-service, device or
 * device-service variable (environment or configuration) appends to `variable_change` in the
 * write's transaction, so the history holds exactly the committed writes. A create is read
 * after the insert; an update and a delete before the write (the rows the caller may touch,
 * their values before). An update that changes nothing is not recorded; a rename is recorded
 * as the old name's delete and the new name's create. The SDK's upsert is a POST then, on
 * 409, a PATCH: the failed POST rolls back, the PATCH records an update.
 */
export function registerVariableHistoryRules(rules: Rules): void {
  for (const resource of AUDITED_VARIABLE_RESOURCES) {
    rules.register(resource, 'POST', {
      after: async ({ tx, actor, ids }) => {
        const rows = await selectVariablesInContext(tx, resource, ids);
        await record(
          tx,
          actor,
          rows.map((v) => change(resource, v, 'create', null, v.value)),
        );
      },
    });
    rules.register(resource, 'PATCH', {
      before: async ({ tx, actor, ids, body }) => {
        const newName = typeof body.name === 'string' ? body.name : undefined;
        const newValue = typeof body.value === 'string' ? body.value : undefined;
        if (newName === undefined && newValue === undefined) return;
        const changes: Omit<VariableChangeRow, 'actor' | 'actor_name'>[] = [];
        for (const v of await selectVariablesInContext(tx, resource, ids)) {
          const name = newName ?? v.name;
          const value = newValue ?? v.value;
          if (name !== v.name) {
            changes.push(change(resource, v, 'delete', v.value, null), change(resource, v, 'create', null, value, name));
          } else if (value !== v.value) {
            changes.push(change(resource, v, 'update', v.value, value));
          }
        }
        await record(tx, actor, changes);
      },
    });
    rules.register(resource, 'DELETE', {
      before: async ({ tx, actor, ids }) => {
        const rows = await selectVariablesInContext(tx, resource, ids);
        await record(
          tx,
          actor,
          rows.map((v) => change(resource, v, 'delete', v.value, null)),
        );
      },
    });
  }
}
