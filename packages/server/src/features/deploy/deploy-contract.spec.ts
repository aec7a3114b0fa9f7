import { describe, expect, it } from 'vitest';
import { contractFileUrl, parseContract, parseRepositoryUrl } from './deploy-contract.js';

describe('parseRepositoryUrl', () => {
  const host = 'https://github.com';
  it('accepts owner/repo on the code host, with or without .git or a trailing slash', () => {
    expect(parseRepositoryUrl('https://github.com/balena-io/sample', host)).toEqual({ owner: 'balena-io', repo: 'sample' });
    expect(parseRepositoryUrl('https://github.com/balena-io/sample.git', host)).toEqual({ owner: 'balena-io', repo: 'sample' });
    expect(parseRepositoryUrl('https://github.com/balena-io/sample/', host)).toEqual({ owner: 'balena-io', repo: 'sample' });
  });
  it('refuses other hosts, ports, protocols and credentials (the server never fetches a host the caller chose)', () => {
    expect(parseRepositoryUrl('https://evil.example/balena-io/sample', host)).toBeNull();
    expect(parseRepositoryUrl('https://github.com:8443/balena-io/sample', host)).toBeNull();
    expect(parseRepositoryUrl('http://github.com/balena-io/sample', host)).toBeNull();
    expect(parseRepositoryUrl('ftp://github.com/balena-io/sample', host)).toBeNull();
    expect(parseRepositoryUrl('https://user:pw@github.com/balena-io/sample', host)).toBeNull();
    expect(parseRepositoryUrl('not a url', host)).toBeNull();
  });
  it('refuses paths that are not exactly owner/repo', () => {
    expect(parseRepositoryUrl('https://github.com/balena-io', host)).toBeNull();
    expect(parseRepositoryUrl('https://github.com/balena-io/sample/tree/main', host)).toBeNull();
    expect(parseRepositoryUrl('https://github.com/../sample', host)).toBeNull();
    expect(parseRepositoryUrl('https://github.com/a%2Fb/sample', host)).toBeNull();
  });
  it('honours a code host served under a path', () => {
    expect(parseRepositoryUrl('http://git.local:3000/forge/me/app', 'http://git.local:3000/forge')).toEqual({ owner: 'me', repo: 'app' });
    expect(parseRepositoryUrl('http://git.local:3000/me/app', 'http://git.local:3000/forge')).toBeNull();
  });
});

describe('contractFileUrl', () => {
  it('reads balena.yml of the default branch (HEAD) under the raw host', () => {
    expect(contractFileUrl('https://raw.githubusercontent.com/', 'me', 'app')).toBe('https://raw.githubusercontent.com/me/app/HEAD/balena.yml');
  });
});

describe('parseContract', () => {
  it('reads name, type and the optional fields', () => {
    const text = 'name: Sample\ntype: sw.application\nversion: 1.2\ndescription: A sample\ndata:\n  defaultDeviceType: raspberrypi3\n  supportedDeviceTypes: [raspberrypi3, intel-nuc]\n';
    expect(parseContract(text)).toEqual({
      name: 'Sample',
      type: 'sw.application',
      version: '1.2',
      description: 'A sample',
      defaultDeviceType: 'raspberrypi3',
      supportedDeviceTypes: ['raspberrypi3', 'intel-nuc'],
    });
  });
  it('is null for unparsable YAML, a non-mapping, or a missing name or type', () => {
    expect(parseContract('name: [unclosed')).toBeNull();
    expect(parseContract('- a\n- b\n')).toBeNull();
    expect(parseContract('just text')).toBeNull();
    expect(parseContract('type: sw.application\n')).toBeNull();
    expect(parseContract('name: Sample\n')).toBeNull();
    expect(parseContract('name: "  "\ntype: sw.application\n')).toBeNull();
  });
});
