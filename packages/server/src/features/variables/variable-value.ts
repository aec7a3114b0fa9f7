import { variableValueProblem, type VariableResource } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';
import { selectConfigPropertyOfParent, selectConfigValuesWithSchema } from './variable.repository.js';

/**
 * Rule (issue 16 "Bad input"): a value is at most VARIABLE_VALUE_MAX_LENGTH characters, on
 * create and on change. Checked before the write. (Through HTTP the 1 MiB body limit refuses
 * such a body first, with 413: docs/variables.md.)
 */
export function checkValueLength(name: unknown, body: HookBody<VariableResource, 'POST' | 'PATCH'>): void {
  if (typeof body.value !== 'string') return;
  const problem = variableValueProblem(typeof name === 'string' ? name : '', body.value);
  if (problem) throw new BadRequestError(problem);
}

/**
 * Rule (issue 16, spec 2 §3 config variable schema property): a configuration variable the
 * device type's schema describes takes a value of its schema (an integer where it says
 * integer, one of its `enum`). The type is the device's for a device's variable, the fleet's
 * default device type for a fleet's. A create is checked before the insert (so the SDK's
 * upsert of a known name gets this answer rather than the duplicate's 409; the parent is one
 * the caller reads, the data API checked that first); a change on the written rows, after the
 * permission checks, and rolled back.
 */
export async function checkNewConfigValue(
  db: Db,
  resource: 'application_config_variable' | 'device_config_variable',
  body: HookBody<'application_config_variable' | 'device_config_variable', 'POST'>,
): Promise<void> {
  const parent = resource === 'application_config_variable' ? body.application : body.device;
  if (typeof parent !== 'number' || typeof body.name !== 'string' || typeof body.value !== 'string') return;
  const problem = variableValueProblem(body.name, body.value, (await selectConfigPropertyOfParent(db, resource, parent, body.name)) ?? undefined);
  if (problem) throw new BadRequestError(problem);
}

/** See checkNewConfigValue: the rows `ids` as written. */
export async function checkConfigValues(db: Db, resource: 'application_config_variable' | 'device_config_variable', ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const row of await selectConfigValuesWithSchema(db, resource, ids)) {
    const problem = variableValueProblem(row.name, row.value, row.property ?? undefined);
    if (problem) throw new BadRequestError(problem);
  }
}
