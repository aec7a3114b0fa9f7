import type { Action } from './types.js';

/**
 * Permission strings follow the spec's legacy namespace: `resin.<resource>.<action>`,
 * optionally conditioned with an OData filter over the resource, bound to the caller:
 * `resin.organization.update?organization_membership/any(om:om/user/any(u:u/actor eq @__ACTOR_ID))`.
 * `a.b.all` implies `a.b.c` (`read-private` included; `read` does not imply `read-private`).
 */
export const ACTOR_ALIAS = '@__ACTOR_ID';

export interface ParsedPermission {
  name: string; // without the condition
  condition?: string; // OData $filter text
}

export function parsePermission(permission: string): ParsedPermission {
  const q = permission.indexOf('?');
  if (q === -1) return { name: permission };
  return { name: permission.slice(0, q), condition: permission.slice(q + 1) };
}

/** True when `held` grants `wanted` (exactly, or through `a.b.all` for `a.b.c`). */
export function permissionImplies(held: string, wanted: string): boolean {
  if (held === wanted) return true;
  const h = held.split('.');
  const w = wanted.split('.');
  if (h.length !== w.length || h[h.length - 1] !== 'all') return false;
  return h.slice(0, -1).every((part, i) => part === w[i]);
}

/** Whether an unconditional permission list grants `wanted` (conditioned ones are ignored). */
export function hasPermission(permissions: readonly string[], wanted: string): boolean {
  return permissions.some((p) => !p.includes('?') && permissionImplies(p, wanted));
}

/**
 * For the data API: the conditions under which `permissions` allow `action` on `resource`.
 * - `true`: unconditionally allowed
 * - `string[]`: allowed where any of these OData filters holds
 * - `false`: not allowed at all
 */
export function conditionsFor(
  permissions: readonly string[],
  resource: string,
  action: Action,
): true | false | string[] {
  const wanted = `resin.${resource}.${action}`;
  const conditions: string[] = [];
  for (const p of permissions) {
    const { name, condition } = parsePermission(p);
    if (!permissionImplies(name, wanted)) continue;
    if (condition === undefined) return true;
    conditions.push(condition);
  }
  return conditions.length > 0 ? conditions : false;
}
