import { selectableFleetRoles } from '@flotilla/model';
import type { TFunction } from 'i18next';
import type { RoleOption } from '../../components/role-select';

/** A fleet role's display name ('Observer' …); unknown names as given. */
export function fleetRoleLabel(role: string | null | undefined, t: TFunction): string {
  if (role === 'observer' || role === 'operator' || role === 'developer' || role === 'administrator') return t(`teams.role_${role}`);
  return role ?? '';
}

/**
 * The roles the fleet dialogs offer (spec 2 §6/§7: plan limits decide). No billing plans
 * exist yet, so `plan` is undefined and nothing is limited; a limited role stays listed,
 * disabled, saying why.
 */
export function fleetRoleOptions(t: TFunction, plan: string | undefined = undefined): RoleOption[] {
  return selectableFleetRoles(plan).map(({ role, selectable }) => ({
    value: role,
    label: selectable ? fleetRoleLabel(role, t) : t('fleet.role_needs_paid_plan', { role: fleetRoleLabel(role, t) }),
    disabled: !selectable,
  }));
}
