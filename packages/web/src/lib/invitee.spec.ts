import { describe, expect, it } from 'vitest';
import { looksLikeEmail } from './invitee';

describe('looksLikeEmail', () => {
  it('treats anything with an @ as an email invite, else a username', () => {
    expect(looksLikeEmail('a@b.example')).toBe(true);
    expect(looksLikeEmail('alice')).toBe(false);
  });
});
