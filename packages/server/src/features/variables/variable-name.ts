import { CONFIG_VARIABLE_RESOURCES, variableNameProblem, type VariableKind, type VariableResource } from '@flotilla/model';
import { BadRequestError } from '../../infra/errors.js';
import type { HookBody } from '../../infra/odata/index.js';

const CONFIG: readonly string[] = CONFIG_VARIABLE_RESOURCES;

export const variableKind = (resource: VariableResource): VariableKind => (CONFIG.includes(resource) ? 'config' : 'environment');

/**
 * Rule (spec 2 §5 Variables): a variable's name follows its kind's rules (pattern, reserved
 * names and namespaces, the Configuration page's whitelist) on create and on rename.
 */
export function checkVariableName(resource: VariableResource, method: 'POST' | 'PATCH', body: HookBody<VariableResource, 'POST' | 'PATCH'>): void {
  if (method === 'PATCH' && !('name' in body)) return;
  const name = body.name;
  const problem = variableNameProblem(variableKind(resource), typeof name === 'string' ? name : undefined);
  if (problem) throw new BadRequestError(problem);
}
