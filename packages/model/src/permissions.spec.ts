import { describe, expect, it } from 'vitest';
import { conditionsFor } from './permissions.js';
import { ROLES } from './roles/roles.js';

describe('read-private', () => {
  it('is implied by all, not by read', () => {
    expect(conditionsFor(['resin.user.all'], 'user', 'read-private')).toBe(true);
    expect(conditionsFor(['resin.user.read'], 'user', 'read-private')).toBe(false);
    expect(conditionsFor(['resin.user.read-private?actor eq @__ACTOR_ID'], 'user', 'read-private')).toEqual(['actor eq @__ACTOR_ID']);
  });

  it('roles: users read their own private fields; support agents and administrators every user\'s', () => {
    expect(conditionsFor(ROLES['default-user'], 'user', 'read-private')).toEqual(['actor eq @__ACTOR_ID']);
    expect(conditionsFor(ROLES.support_agent, 'user', 'read-private')).toBe(true);
    expect(conditionsFor(ROLES['platform-administrator'], 'user', 'read-private')).toBe(true);
    expect(conditionsFor(ROLES.anonymous, 'user', 'read-private')).toBe(false);
  });
});
