import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('billing settings (issue 18)', () => {
  it('is off by default and on with FLOTILLA_BILLING=on', () => {
    expect(loadConfig({}).FLOTILLA_BILLING).toBe('off');
    const c = loadConfig({ FLOTILLA_BILLING: 'on', FLOTILLA_PLANS_FILE: '/etc/flotilla/plans.json', FLOTILLA_BILLING_MANUAL_INSTRUCTIONS: 'IBAN …' });
    expect([c.FLOTILLA_BILLING, c.FLOTILLA_PLANS_FILE, c.FLOTILLA_BILLING_MANUAL_INSTRUCTIONS]).toEqual(['on', '/etc/flotilla/plans.json', 'IBAN …']);
  });
  it('refuses other values and half a Stripe configuration, naming the variable', () => {
    expect(() => loadConfig({ FLOTILLA_BILLING: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLOTILLA_BILLING: 'yes' })).toThrow(/FLOTILLA_BILLING: must be on or off/);
    expect(() => loadConfig({ FLOTILLA_STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/FLOTILLA_STRIPE_PUBLISHABLE_KEY: Stripe needs both/);
    expect(() => loadConfig({ FLOTILLA_STRIPE_API_URL: 'ftp://x' })).toThrow(/FLOTILLA_STRIPE_API_URL/);
    expect(loadConfig({ FLOTILLA_STRIPE_SECRET_KEY: 'sk_test_x', FLOTILLA_STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }).FLOTILLA_STRIPE_SECRET_KEY).toBe('sk_test_x');
  });
  it('reads the Stripe webhook secret, only beside the Stripe keys', () => {
    const keys = { FLOTILLA_STRIPE_SECRET_KEY: 'sk_test_x', FLOTILLA_STRIPE_PUBLISHABLE_KEY: 'pk_test_x' };
    expect(loadConfig({ ...keys, FLOTILLA_STRIPE_WEBHOOK_SECRET: 'whsec_x' }).FLOTILLA_STRIPE_WEBHOOK_SECRET).toBe('whsec_x');
    expect(loadConfig(keys).FLOTILLA_STRIPE_WEBHOOK_SECRET).toBeUndefined();
    expect(() => loadConfig({ FLOTILLA_STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/FLOTILLA_STRIPE_WEBHOOK_SECRET: a Stripe webhook secret needs the Stripe keys/);
  });
});
