import { describe, expect, it } from 'vitest';
import { apiKeyExpiry } from './api-key-expiry';

describe('API key expiry choices', () => {
  const now = new Date('2030-01-10T12:00:00.000Z');

  it('turns a preset into now plus that many days', () => {
    expect(apiKeyExpiry('1', '', now)).toEqual({ expiryDate: '2030-01-11T12:00:00.000Z' });
    expect(apiKeyExpiry('90', '', now)).toEqual({ expiryDate: '2030-04-10T12:00:00.000Z' });
  });

  it('means null for never and undefined for keep', () => {
    expect(apiKeyExpiry('never', '', now)).toEqual({ expiryDate: null });
    expect(apiKeyExpiry('keep', '', now)).toEqual({ expiryDate: undefined });
  });

  it('refuses a missing or past custom date and accepts a future one', () => {
    expect(apiKeyExpiry('custom', '', now)).toEqual({ error: 'custom_required' });
    expect(apiKeyExpiry('custom', '2001-01-01T00:00', now)).toEqual({ error: 'custom_in_past' });
    const future = apiKeyExpiry('custom', '2031-01-01T00:00', now);
    expect('expiryDate' in future && new Date(future.expiryDate!).getFullYear()).toBe(2031);
  });
});
