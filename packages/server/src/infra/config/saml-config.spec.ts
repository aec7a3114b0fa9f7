import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('SAML setting (issue 20)', () => {
  it('is on by default and off with FLOTILLA_SAML=off', () => {
    expect(loadConfig({}).FLOTILLA_SAML).toBe('on');
    expect(loadConfig({ FLOTILLA_SAML: 'off' }).FLOTILLA_SAML).toBe('off');
  });
  it('refuses other values, naming the variable', () => {
    expect(() => loadConfig({ FLOTILLA_SAML: 'no' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLOTILLA_SAML: 'no' })).toThrow(/FLOTILLA_SAML: must be on or off/);
  });
});
