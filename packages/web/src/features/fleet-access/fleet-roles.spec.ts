import { DEFAULT_CATALOGUE } from '@flotilla/model';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { fleetRoleOptions } from './fleet-roles';

const t = ((key: string) => key) as unknown as TFunction;
const limits = (code: string) => ({ code, includes: DEFAULT_CATALOGUE.plans.find((p) => p.code === code)!.includes });

describe('fleet role options (issue 18: the operator seat is paid only)', () => {
  it('disables operator on the free plan, saying why', () => {
    const operator = fleetRoleOptions(t, limits('free')).find((o) => o.value === 'operator')!;
    expect(operator).toMatchObject({ disabled: true, label: 'fleet.role_needs_paid_plan' });
    expect(fleetRoleOptions(t, limits('free')).filter((o) => o.disabled).map((o) => o.value)).toEqual(['operator']);
  });
  it('offers every role on a paid plan and while billing is off', () => {
    expect(fleetRoleOptions(t, limits('pilot-v2')).some((o) => o.disabled)).toBe(false);
    expect(fleetRoleOptions(t, null).some((o) => o.disabled)).toBe(false);
  });
});
