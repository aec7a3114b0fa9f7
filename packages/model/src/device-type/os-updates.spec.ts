import { describe, expect, it } from 'vitest';
import {
  classifyOsUpdate,
  isOsUpdateParams,
  isOsUpdateAllowed,
  osLineFromCatalogue,
  osReleaseWriteBlock,
  osUpdateActionVersion,
  osUpdateKind,
  osUpdateNeedsTakeover,
  recommendedOsVersion,
  supervisorUpdateBlock,
  type AvailableOsVersion,
  type OsUpdateState,
} from './os-updates.js';
import { compareOsVersions, isEsrOsVersion, parseOsVersion } from './os-versions.js';
import { catalogueFleets, DEFAULT_OS_RELEASES, ESR_OS_RELEASES, osReleaseRawVersion } from './os-catalogue.js';
import { DEVICE_TYPES } from './device-types.js';

const AVAILABLE: AvailableOsVersion[] = [
  { raw_version: '6.1.0+rev0.prod', osType: 'default' },
  { raw_version: '6.0.10+rev0.prod', osType: 'default' },
  { raw_version: '5.3.21+rev0.prod', osType: 'default' },
  { raw_version: '2.113.18+rev0.prod', osType: 'default' },
  { raw_version: '2.83.18+rev1.prod', osType: 'default' },
  { raw_version: '2025.7.0+rev0.prod', osType: 'esr', basedOnVersion: '6.0.10' },
  { raw_version: '2024.10.1+rev0.prod', osType: 'esr', basedOnVersion: '5.3.21' },
];

const device = (osVersion: string | null, extra: { isOnline?: boolean; deviceType?: string } = {}) => ({
  deviceType: extra.deviceType ?? 'raspberrypi3',
  isOnline: extra.isOnline ?? true,
  osVersion,
  osVariant: 'prod',
});

describe('classifyOsUpdate (spec 2 §4), every state', () => {
  const rows: [string, string | null, string, OsUpdateState, { isOnline?: boolean; deviceType?: string; available?: AvailableOsVersion[] }?][] = [
    ['an offline device', 'balenaOS 5.3.21', '6.0.10+rev0.prod', 'offline', { isOnline: false }],
    ['an OS that is not balenaOS', 'Linux 6.8.0-45-generic', '6.0.10+rev0.prod', 'not supported'],
    ['a device that never reported', null, '6.0.10+rev0.prod', 'not supported'],
    ['a type without host OS releases', 'balenaOS 5.3.21', '6.0.10+rev0.prod', 'not supported', { available: [] }],
    ['a version the catalogue does not offer', 'balenaOS 5.3.21', '6.0.11', 'versionNotAvailable'],
    ['a target that is no version', 'balenaOS 5.3.21', 'latest', 'versionNotAvailable'],
    ['the version it runs (revision 0 written or not)', 'balenaOS 6.0.10', '6.0.10+rev0.prod', 'upToDate'],
    ['the version it runs, ESR', 'balenaOS 2025.7.0', '2025.7.0+rev0.prod', 'upToDate'],
    ['a newer default version', 'balenaOS 5.3.21', '6.0.10+rev0.prod', 'updatable'],
    ['a newer revision below 2.88.4', 'balenaOS 2.83.18', '2.83.18+rev1.prod', 'updatable'],
    ['a newer ESR version from ESR', 'balenaOS 2024.10.1', '2025.7.0+rev0.prod', 'updatable'],
    ['ESR to non-ESR, even newer', 'balenaOS 2024.10.1', '6.1.0+rev0.prod', 'forbiddenSwitchToNonEsr'],
    ['ESR to an older non-ESR', 'balenaOS 2025.7.0', '5.3.21+rev0.prod', 'forbiddenSwitchToNonEsr'],
    ['non-ESR to an ESR based on a newer OS', 'balenaOS 5.3.21', '2025.7.0+rev0.prod', 'updatableSwitchToEsr'],
    ['non-ESR to an ESR based on the same OS', 'balenaOS 5.3.21', '2024.10.1+rev0.prod', 'downgradeCannotSwitchToEsr'],
    ['non-ESR to an ESR based on an older OS', 'balenaOS 6.1.0', '2025.7.0+rev0.prod', 'downgradeCannotSwitchToEsr'],
    ['a downgrade on the default line', 'balenaOS 6.0.10', '5.3.21+rev0.prod', 'not supported'],
    ['a downgrade on the ESR line', 'balenaOS 2025.7.0', '2024.10.1+rev0.prod', 'not supported'],
    ['a source older than the update kinds allow', 'Resin OS 2.3.0+rev1', '6.0.10+rev0.prod', 'not supported'],
  ];
  it.each(rows)('%s: %s → %s is %s', (_what, os, target, state, extra) => {
    const c = classifyOsUpdate(device(os, extra), target, extra?.available ?? AVAILABLE);
    expect(c.state).toBe(state);
    expect(isOsUpdateAllowed(c)).toBe(state === 'updatable' || state === 'updatableSwitchToEsr');
    if (!isOsUpdateAllowed(c) && state !== 'upToDate') expect(c.reason).toBeTruthy();
  });

  it('covers every state of the spec', () => {
    expect(new Set(rows.map((r) => r[3])).size).toBe(8);
  });

  it('gives the update kind, the version to install and the reasons', () => {
    expect(classifyOsUpdate(device('balenaOS 5.3.21'), '6.0.10+rev0.prod', AVAILABLE)).toEqual({
      state: 'updatable',
      kind: 'balenahup',
      takeover: false,
      actionVersion: '6.0.10+rev0.prod',
    });
    expect(classifyOsUpdate(device('balenaOS 6.0.10'), '5.3.21+rev0.prod', AVAILABLE).reason).toBe('OS downgrades are not allowed');
    expect(classifyOsUpdate(device('Resin OS 2.3.0+rev1'), '6.0.10+rev0.prod', AVAILABLE).reason).toBe('Current OS version must be >= 2.14.0+rev1');
    expect(classifyOsUpdate(device('balenaOS 5.3.21', { isOnline: false }), '6.0.10', AVAILABLE).reason).toBe('device must be online');
    expect(classifyOsUpdate(device('balenaOS 5.3.21'), '6.0.10', []).reason).toBe('OS version not supported for device type');
  });

  it('asks for the takeover confirmation when the update crosses the type\'s re-partitioning version', () => {
    const nano = (os: string, target: string) => classifyOsUpdate(device(os, { deviceType: 'jetson-nano' }), target, AVAILABLE);
    expect(nano('balenaOS 5.3.21', '6.0.10+rev0.prod')).toMatchObject({ state: 'updatable', takeover: true });
    expect(nano('balenaOS 6.0.10', '6.1.0+rev0.prod')).toMatchObject({ state: 'updatable', takeover: false });
    expect(nano('balenaOS 5.3.21', '2025.7.0+rev0.prod')).toMatchObject({ state: 'updatableSwitchToEsr', takeover: true });
    // Same update on a type without takeover: no confirmation.
    expect(classifyOsUpdate(device('balenaOS 5.3.21'), '6.0.10+rev0.prod', AVAILABLE).takeover).toBe(false);
    expect(osUpdateNeedsTakeover('jetson-nano', '6.0.10', '6.1.0')).toBe(false);
    expect(osUpdateNeedsTakeover('generic-aarch64', '6.0.10', '6.1.0')).toBe(true);
  });
});

describe('update kinds and minimum source versions', () => {
  it('picks resinhup11, resinhup12 or balenahup by the source version', () => {
    expect(osUpdateKind('1.1.4', '2.2.0+rev1')).toEqual({ kind: 'resinhup11' });
    expect(osUpdateKind('1.1.3', '2.2.0+rev1')).toEqual({ reason: 'Current OS version must be >= 2.14.0+rev1' });
    expect(osUpdateKind('1.2.1', '2.2.0+rev1')).toEqual({ kind: 'resinhup12' });
    expect(osUpdateKind('1.2.0', '2.2.0+rev1')).toEqual({ reason: 'Current OS version must be >= 2.14.0+rev1' });
    expect(osUpdateKind('1.26.0', '3.0.0')).toEqual({ reason: 'Target OS version must be < 3.0.0' });
    expect(osUpdateKind('2.14.0+rev1', '2.16.0+rev1')).toEqual({ kind: 'balenahup' });
    expect(osUpdateKind('2.14.0', '2.16.0+rev1')).toEqual({ reason: 'Current OS version must be >= 2.14.0+rev1' });
    expect(osUpdateKind('2.14.0+rev1', '2.15.0')).toEqual({ reason: 'Target OS version must be >= 2.16.0+rev1' });
    expect(osUpdateKind('2024.7.0', '2025.7.0')).toEqual({ kind: 'balenahup' });
  });

  it('refuses same version, downgrades and a variant switch', () => {
    expect(osUpdateKind('6.0.10', '6.0.10')).toEqual({ reason: 'Current OS version matches target OS version' });
    expect(osUpdateKind('6.0.10+rev1', '6.0.10')).toEqual({ reason: 'OS downgrades are not allowed' });
    expect(osUpdateKind('5.3.21+rev0.dev', '6.0.10+rev0.prod')).toEqual({ reason: 'Updates cannot be performed between development and production OS variants' });
  });

  it('installs a target below 2.88.4+rev0 without a revision as +rev1', () => {
    expect(osUpdateActionVersion('2.83.18')).toBe('2.83.18+rev1');
    expect(osUpdateActionVersion('2.83.18.prod')).toBe('2.83.18+rev1.prod');
    expect(osUpdateActionVersion('2.88.3')).toBe('2.88.3+rev1');
    expect(osUpdateActionVersion('2.83.18+rev3.prod')).toBe('2.83.18+rev3.prod');
    expect(osUpdateActionVersion('2.88.4')).toBe('2.88.4');
    expect(osUpdateActionVersion('6.0.10')).toBe('6.0.10');
  });
});

describe('versions', () => {
  it('parses and orders balenaOS versions with revisions, variants and prereleases', () => {
    expect(parseOsVersion('balenaOS 2.88.4+rev1.prod')).toEqual({ major: 2, minor: 88, patch: 4, revision: 1, variant: 'prod' });
    expect(parseOsVersion('2.83.18.dev')).toMatchObject({ revision: 0, variant: 'dev' });
    expect(parseOsVersion('Linux 6.8.0-45-generic')).toBeUndefined();
    expect(compareOsVersions('2.88.4+rev1', '2.88.4')).toBe(1);
    expect(compareOsVersions('6.1.0-beta1', '6.1.0')).toBe(-1);
    expect(compareOsVersions('6.0.10+rev0.dev', '6.0.10.prod')).toBe(0);
    expect(isEsrOsVersion('2024.10.1')).toBe(true);
    expect(isEsrOsVersion('2000.1.0')).toBe(false);
  });

  it('recommends the newest release of the device\'s own line', () => {
    expect(recommendedOsVersion({ osVersion: 'balenaOS 5.3.21' }, AVAILABLE)).toBe('6.1.0+rev0.prod');
    expect(recommendedOsVersion({ osVersion: 'balenaOS 2024.10.1' }, AVAILABLE)).toBe('2025.7.0+rev0.prod');
    expect(recommendedOsVersion({ osVersion: 'balenaOS 5.3.21' }, [])).toBeUndefined();
  });
});

describe('supervisor update rules (spec 2 §4)', () => {
  const dev = (os: string | null, sv: string | null) => ({ osVersion: os, supervisorVersion: sv });
  it('allows only a newer version', () => {
    expect(supervisorUpdateBlock(dev('balenaOS 6.0.10', '14.0.0'), '17.0.2')).toBeUndefined();
    expect(supervisorUpdateBlock(dev('balenaOS 6.0.10', '17.0.2'), '17.0.2')).toBe('already running this version');
    expect(supervisorUpdateBlock(dev('balenaOS 6.0.10', 'v17.0.2'), '17.0.2')).toBe('already running this version');
    expect(supervisorUpdateBlock(dev('balenaOS 6.0.10', '17.0.2'), '16.4.6')).toBe('The supervisor can only be updated to a newer version');
  });
  it('blocks ESR devices and versions too old for a supervisor-only update', () => {
    expect(supervisorUpdateBlock(dev('balenaOS 2024.10.1', '14.0.0'), '17.0.2')).toBe('Cannot update ESR supervisor');
    expect(supervisorUpdateBlock(dev('Resin OS 2.3.0+rev1', '6.0.0'), '17.0.2')).toBe('update not supported for type version');
    expect(supervisorUpdateBlock(dev('balenaOS 2.12.0', '6.4.0'), '17.0.2')).toBe('update not supported for type version');
    expect(supervisorUpdateBlock(dev('Linux 6.8.0-45-generic', '14.0.0'), '17.0.2')).toBe('update not supported for type version');
    expect(supervisorUpdateBlock(dev('balenaOS 6.0.10', '14.0.0'), 'latest')).toBe('update not supported for type version');
  });
  it('does not judge versions a device never reported', () => {
    expect(supervisorUpdateBlock(dev(null, null), '14.0.0')).toBeUndefined();
  });
});

describe('host OS release writes the server refuses', () => {
  it('refuses downgrades and ESR switches, allows the same version and newer ones', () => {
    expect(osReleaseWriteBlock('balenaOS 5.3.21', { version: '6.0.10+rev0.prod', esr: false })).toBeUndefined();
    expect(osReleaseWriteBlock('balenaOS 6.0.10', { version: '6.0.10+rev0.prod', esr: false })).toBeUndefined();
    expect(osReleaseWriteBlock(null, { version: '2.83.18+rev1.prod', esr: false })).toBeUndefined();
    expect(osReleaseWriteBlock('balenaOS 6.0.10', { version: '5.3.21+rev0.prod', esr: false })).toBe('OS downgrades are not allowed');
    expect(osReleaseWriteBlock('balenaOS 2024.10.1', { version: '6.1.0+rev0.prod', esr: false })).toBe('A device on an ESR line cannot switch to a non-ESR OS');
    expect(osReleaseWriteBlock('balenaOS 5.3.21', { version: '2025.7.0+rev0.prod', esr: true, basedOn: '6.0.10' })).toBeUndefined();
    expect(osReleaseWriteBlock('balenaOS 6.0.10', { version: '2025.7.0+rev0.prod', esr: true, basedOn: '6.0.10' })).toMatch(/downgrade/);
  });
});

describe('the catalogue', () => {
  it('has a host fleet per device type, an ESR one per released type and a supervisor block per architecture', () => {
    const fleets = catalogueFleets();
    expect(fleets.filter((f) => f.kind === 'host' && !f.esr)).toHaveLength(DEVICE_TYPES.length);
    expect(fleets.find((f) => f.appName === 'fincm3')).toMatchObject({ archived: true });
    expect(fleets.find((f) => f.appName === 'fincm3-esr')).toBeUndefined();
    expect(fleets.filter((f) => f.kind === 'supervisor').map((f) => f.appName).sort()).toEqual(
      ['aarch64-supervisor', 'amd64-supervisor', 'armv7hf-supervisor', 'i386-supervisor', 'rpi-supervisor'].filter((n) => fleets.some((f) => f.appName === n)),
    );
    expect(fleets.some((f) => f.appName === 'amd64-supervisor')).toBe(true);
  });
  it('has ESR releases above 2000 and default releases below, in the raw_version format balena-sdk parses', () => {
    expect(ESR_OS_RELEASES.every((r) => isEsrOsVersion(r.semver))).toBe(true);
    expect(DEFAULT_OS_RELEASES.some((r) => isEsrOsVersion(r.semver))).toBe(false);
    expect(osReleaseRawVersion(DEFAULT_OS_RELEASES[0]!, 'dev')).toBe('2.83.18+rev1.dev');
  });
});

describe('osLineFromCatalogue', () => {
  const withLines = [
    { raw_version: '6.1.0+rev0.prod', osType: 'default', line: 'next' },
    { raw_version: '6.0.10+rev0.prod', osType: 'default', line: 'current' },
    { raw_version: '5.3.21+rev0.prod', osType: 'default', line: 'sunset' },
    { raw_version: '2.113.18+rev0.prod', osType: 'default', line: 'end-of-life' },
    { raw_version: '2025.7.0+rev0.prod', osType: 'esr', line: 'current' },
    { raw_version: '2024.10.1+rev0.prod', osType: 'esr', line: 'sunset' },
  ];
  it('reads the line from the catalogue release, or places an unlisted version', () => {
    expect(osLineFromCatalogue('balenaOS 6.0.10', withLines)).toBe('current');
    expect(osLineFromCatalogue('balenaOS 2.113.18', withLines)).toBe('outdated');
    expect(osLineFromCatalogue('balenaOS 2024.10.1', withLines)).toBe('sunset');
    expect(osLineFromCatalogue('balenaOS 2.50.0', withLines)).toBe('outdated');
    expect(osLineFromCatalogue('balenaOS 7.0.0', withLines)).toBe('next');
    expect(osLineFromCatalogue('balenaOS 5.4.0', withLines)).toBe('sunset');
    expect(osLineFromCatalogue('Linux 6.8.0', withLines)).toBeUndefined();
  });
});

describe('variants', () => {
  it('keeps a device on its variant, from the version string or os_variant', () => {
    const dev = { deviceType: 'raspberrypi3', isOnline: true, osVersion: 'balenaOS 5.3.21', osVariant: 'dev' };
    const withDev = [...AVAILABLE, { raw_version: '6.0.10+rev0.dev', osType: 'default' }];
    expect(classifyOsUpdate(dev, '6.0.10+rev0.prod', withDev)).toMatchObject({ state: 'not supported', reason: 'Updates cannot be performed between development and production OS variants' });
    expect(classifyOsUpdate(dev, '6.0.10+rev0.dev', withDev)).toMatchObject({ state: 'updatable' });
    expect(classifyOsUpdate({ ...dev, osVariant: null, osVersion: '5.3.21+rev0.dev' }, '6.0.10+rev0.prod', withDev).state).toBe('not supported');
  });
});

describe('the os-update action parameters', () => {
  const ok = { targetVersion: '6.1.0+rev0.prod', version: '6.1.0+rev0', variant: 'prod', kind: 'balenahup', takeover: false, image: null };
  it('accepts what the server sends and nothing malformed', () => {
    expect(isOsUpdateParams(ok)).toBe(true);
    expect(isOsUpdateParams({ ...ok, variant: null, image: 'https://example.test/os.img', takeover: true })).toBe(true);
    expect(isOsUpdateParams({ ...ok, kind: 'reflash' })).toBe(false);
    expect(isOsUpdateParams({ ...ok, variant: 'debug' })).toBe(false);
    expect(isOsUpdateParams({ ...ok, targetVersion: 6 })).toBe(false);
    expect(isOsUpdateParams({ ...ok, takeover: 'no' })).toBe(false);
    expect(isOsUpdateParams(null)).toBe(false);
  });
});
