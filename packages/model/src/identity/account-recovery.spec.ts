import { describe, expect, it } from 'vitest';
import { emailVerificationState, profileProblems, rateLimitText } from './account-recovery.js';

describe('profileProblems (spec 1 §5: all four profile fields required)', () => {
  it('accepts a complete profile', () => {
    expect(profileProblems({ first_name: 'Ada', last_name: 'Lovelace', company: 'Engines', account_type: 'professional' })).toEqual({});
  });
  it('names each missing or blank field', () => {
    expect(profileProblems({ first_name: '  ', company: 'X', account_type: undefined })).toEqual({
      first_name: 'First name is required',
      last_name: 'Last name is required',
      account_type: 'Account type is required',
    });
  });
  it('refuses an unknown account type and over-long text', () => {
    const p = profileProblems({ first_name: 'a'.repeat(256), last_name: 'B', company: 'C', account_type: 'business' });
    expect(p.account_type).toBe('Account type must be personal or professional');
    expect(p.first_name).toBe('First name must be at most 255 characters');
    expect(p.last_name).toBeUndefined();
  });
  it('refuses non-string text', () => {
    expect(profileProblems({ first_name: 5, last_name: 'B', company: 'C', account_type: 'personal' }).first_name).toBe('First name is required');
  });
});

describe('emailVerificationState (spec 1 §4)', () => {
  it('is pending when verification is required, missing when not, verified once verified', () => {
    expect(emailVerificationState({ is_verified: false, must_be_verified: true })).toBe('pending');
    expect(emailVerificationState({ is_verified: false, must_be_verified: false })).toBe('missing');
    expect(emailVerificationState({ is_verified: true, must_be_verified: true })).toBe('verified');
  });
});

describe('rateLimitText (spec 1 §8: the next valid time)', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('says try again shortly when the time is unknown or now', () => {
    expect(rateLimitText(null, now)).toBe('Too many requests, try again shortly');
    expect(rateLimitText('not a date', now)).toBe('Too many requests, try again shortly');
    expect(rateLimitText(new Date(now.getTime() + 500), now)).toBe('Too many requests, try again shortly');
  });
  it('names seconds, minutes or hours', () => {
    expect(rateLimitText(new Date(now.getTime() + 45_000), now)).toBe('Too many requests, available again in 45 seconds');
    expect(rateLimitText('2026-01-01T00:01:30Z', now)).toBe('Too many requests, available again in 2 minutes');
    expect(rateLimitText('2026-01-01T01:00:00Z', now)).toBe('Too many requests, available again in 1 hour');
    expect(rateLimitText('2026-01-01T02:30:00Z', now)).toBe('Too many requests, available again in 3 hours');
  });
});
