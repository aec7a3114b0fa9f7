import { fleetRoleProblem, selectableFleetRoles, type PlanLimits } from '@flotilla/model';
import type { TFunction } from 'i18next';
import type { RoleOption } from '../../components/role-select';

/** A fleet role's display name ('Observer' …); unknown names as given. */
export function fleetRoleLabel(role: string | null | undefined, t: TFunction): string {
  if (role === 'observer' || role === 'operator' || role === 'developer' || role === 'administrator') return t(`teams.role_${role}`);
  return role ?? '';
}

/**
 * The roles the fleet dialogs offer (spec 2 §6/§7: plan limits decide, by the model's
 * `fleetRoleProblem`, the rule the server enforces). `plan` is the organization's plan, null
 * while billing is off (nothing is limited); a limited role stays listed, disabled, saying why.
 */
export function fleetRoleOptions(t: TFunction, plan: PlanLimits | null = null): RoleOption[] {
  return selectableFleetRoles(undefined).map(({ role }) => {
    const selectable = fleetRoleProblem(plan, role) === null;
    return {
      value: role,
      label: selectable ? fleetRoleLabel(role, t) : t('fleet.role_needs_paid_plan', { role: fleetRoleLabel(role, t) }),
      disabled: !selectable,
    };
  });
}
