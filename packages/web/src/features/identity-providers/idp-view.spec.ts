import { IDP_MESSAGES } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { addableOrganizations, landingProviderId, membershipRemovalBlock, providerControlBlock } from './idp-view';

describe('landingProviderId', () => {
  it('is the first provider whose every organization the user administers', () => {
    const providers = [
      { id: 1, organizationIds: [10, 20] },
      { id: 2, organizationIds: [10] },
      { id: 3, organizationIds: [10] },
    ];
    expect(landingProviderId(providers, [10])).toBe(2);
    expect(landingProviderId(providers, [10, 20])).toBe(1);
  });

  it('falls back to the first visible provider, and is undefined when there is none', () => {
    expect(landingProviderId([{ id: 4, organizationIds: [10, 20] }], [10])).toBe(4);
    expect(landingProviderId([], [10])).toBeUndefined();
  });
});

describe('the controls of a provider', () => {
  it('are blocked for a user who does not administer every organization of it', () => {
    expect(providerControlBlock(false)).toBe(IDP_MESSAGES.cannot_interact_not_an_admin_of_this_idp);
    expect(providerControlBlock(true)).toBeUndefined();
  });

  it('never remove the last organization', () => {
    expect(membershipRemovalBlock(true, 1)).toBe(IDP_MESSAGES.idp_must_have_at_least_one_org);
    expect(membershipRemovalBlock(true, 2)).toBeUndefined();
    expect(membershipRemovalBlock(false, 2)).toBe(IDP_MESSAGES.cannot_interact_not_an_admin_of_this_idp);
  });
});

describe('addableOrganizations', () => {
  it('lists the eligible organizations the provider does not authorize yet, in their order', () => {
    const eligible = [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ];
    expect(addableOrganizations(eligible, [2])).toEqual([eligible[0], eligible[2]]);
    expect(addableOrganizations(eligible, [1, 2, 3])).toEqual([]);
  });
});
