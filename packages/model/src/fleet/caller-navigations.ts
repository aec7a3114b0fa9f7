import { fleetRoleAtLeast } from '../roles/filters.js';

/**
 * Navigations to the caller's own row, computed rather than stored: from a row of the
 * resource they are listed under, the navigation leads to the caller's row of `resource`
 * (matched on its `actor`) when `condition` — a filter over the starting row, bound to the
 * caller as role conditions are — holds, and to no row otherwise.
 *
 * balena-sdk's "directly accessible" variants (`application.getAllDirectlyAccessible`,
 * `getDirectlyAccessible`, `hasAny`, `getAppByName(…, 'directly_accessible')`) filter on
 * `is_directly_accessible_by__user/any(dau:1 eq 1)`: fleets the caller reaches through
 * their own organization or fleet roles, not through public visibility or support access.
 */
export interface CallerNavigationDef {
  name: string;
  /** The caller's resource the navigation leads to (it has an `actor` column). */
  resource: string;
  condition: string;
}

export const CALLER_NAVIGATIONS: Readonly<Record<string, readonly CallerNavigationDef[]>> = {
  application: [{ name: 'is_directly_accessible_by__user', resource: 'user', condition: fleetRoleAtLeast('observer') }],
};
