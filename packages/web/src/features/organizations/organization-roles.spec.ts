import { DEFAULT_CATALOGUE } from '@flotilla/model';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { organizationRoleLabel } from './organization-roles';

const t = ((key: string, opts?: Record<string, string>) => (opts ? `${key}|${opts.role}|${opts.price}` : key)) as unknown as TFunction;
const free = DEFAULT_CATALOGUE.plans[0]!;

describe('organization role labels (issue 18 item 8)', () => {
  it("shows the seat price of the organization's plan as '+$X.XX /mo'", () => {
    const plan = { limits: { code: free.code, includes: free.includes }, addons: free.addons };
    expect(organizationRoleLabel('administrator', t, plan)).toBe('members.role_with_price|orgs.role_administrator|+$49.00 /mo');
    expect(organizationRoleLabel('member', t, plan)).toBe('members.role_with_price|orgs.role_member|+$0.00 /mo');
    expect(organizationRoleLabel('administrator', t, { ...plan, addons: { 'member:administrator': 1999 } })).toBe('members.role_with_price|orgs.role_administrator|+$19.99 /mo');
  });
  it('shows no price while billing is off, or when the plan sells no such seat', () => {
    expect(organizationRoleLabel('administrator', t, null)).toBe('orgs.role_administrator');
    expect(organizationRoleLabel('member', t, { limits: { code: 'x', includes: {} }, addons: {} })).toBe('orgs.role_member');
  });
});
