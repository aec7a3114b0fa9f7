import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('helpdesk settings (issue 19)', () => {
  const bridge = { FLOTILLA_ZENDESK_URL: 'https://example.zendesk.com', FLOTILLA_ZENDESK_EMAIL: 'api@example.com', FLOTILLA_ZENDESK_TOKEN: 'tok' };
  it('reads the support inbox and the Zendesk bridge', () => {
    expect(loadConfig({}).FLOTILLA_SUPPORT_EMAIL).toBeUndefined();
    expect(loadConfig({ FLOTILLA_SUPPORT_EMAIL: 'help@example.com' }).FLOTILLA_SUPPORT_EMAIL).toBe('help@example.com');
    const c = loadConfig({ ...bridge, FLOTILLA_ZENDESK_SSO_SECRET: 'shared' });
    expect([c.FLOTILLA_ZENDESK_URL, c.FLOTILLA_ZENDESK_EMAIL, c.FLOTILLA_ZENDESK_TOKEN, c.FLOTILLA_ZENDESK_SSO_SECRET]).toEqual(['https://example.zendesk.com', 'api@example.com', 'tok', 'shared']);
  });
  it('refuses a bad inbox, half a bridge, and a portal secret without the bridge, naming the variable', () => {
    expect(() => loadConfig({ FLOTILLA_SUPPORT_EMAIL: 'not-an-address' })).toThrow(/FLOTILLA_SUPPORT_EMAIL: must be an e-mail address/);
    expect(() => loadConfig({ FLOTILLA_ZENDESK_URL: bridge.FLOTILLA_ZENDESK_URL })).toThrow(/FLOTILLA_ZENDESK_URL: the Zendesk bridge needs/);
    expect(() => loadConfig({ FLOTILLA_ZENDESK_SSO_SECRET: 'shared' })).toThrow(/FLOTILLA_ZENDESK_SSO_SECRET: FLOTILLA_ZENDESK_SSO_SECRET needs the Zendesk bridge/);
    expect(() => loadConfig({ ...bridge, FLOTILLA_ZENDESK_URL: 'ftp://x' })).toThrow(/FLOTILLA_ZENDESK_URL/);
  });
});
