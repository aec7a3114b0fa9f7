import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from './config.js';

describe('FLOTILLA_TRUST_PROXY', () => {
  it('is off by default and for false/0', () => {
    expect(loadConfig({}).FLOTILLA_TRUST_PROXY).toBeUndefined();
    expect(parseTrustProxy('false')).toBeUndefined();
    expect(parseTrustProxy('0')).toBeUndefined();
  });

  it('takes a hop count or a comma list of addresses and CIDR ranges', () => {
    expect(loadConfig({ FLOTILLA_TRUST_PROXY: '2' }).FLOTILLA_TRUST_PROXY).toBe(2);
    expect(loadConfig({ FLOTILLA_TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8' }).FLOTILLA_TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses anything else at start-up', () => {
    for (const bad of ['true', 'proxy.example.com', '10.0.0.1/33', '10.0.0.0/8/1', '1000']) {
      expect(() => loadConfig({ FLOTILLA_TRUST_PROXY: bad }), bad).toThrow(/FLOTILLA_TRUST_PROXY/);
    }
  });
});
