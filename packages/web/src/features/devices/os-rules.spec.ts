import { DEFAULT_OS_RELEASES, ESR_OS_RELEASES, OS_VARIANTS, osReleaseRawVersion, SUPERVISOR_RELEASES } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { deviceOsVariant, osBadge, osUpdateOverview, osUpdateStartProblem, osUpdateUnavailable, supervisorOverview, type CatalogueOsVersion } from './os-rules';

/** The seeded catalogue as balena-sdk's os.getAvailableOsVersions returns it (line from phase or the ESR line tags). */
const esrLine = (semver: string) => (semver.startsWith('2025.7') ? 'current' : semver.startsWith('2024.10') ? 'sunset' : 'outdated');
const CATALOGUE: CatalogueOsVersion[] = OS_VARIANTS.flatMap((variant) => [
  ...DEFAULT_OS_RELEASES.map((r) => ({
    raw_version: osReleaseRawVersion(r, variant),
    variant,
    osType: 'default',
    phase: r.phase ?? null,
    line: r.phase === 'end-of-life' ? 'outdated' : (r.phase ?? null),
  })),
  ...ESR_OS_RELEASES.map((r) => ({
    raw_version: osReleaseRawVersion(r, variant),
    variant,
    osType: 'esr',
    phase: null,
    line: esrLine(r.semver),
    basedOnVersion: r.basedOn!,
  })),
]);

describe('osBadge', () => {
  it('gives the line of the catalogue release the device runs', () => {
    expect(osBadge('balenaOS 6.0.10', CATALOGUE)).toEqual({ line: 'current', esr: false });
    expect(osBadge('balenaOS 6.1.0', CATALOGUE)).toEqual({ line: 'next', esr: false });
    expect(osBadge('balenaOS 5.3.21', CATALOGUE)).toEqual({ line: 'sunset', esr: false });
  });
  it('says end of life for a release in its end-of-life phase, outdated for a version older than the catalogue', () => {
    expect(osBadge('balenaOS 2.113.18', CATALOGUE)).toEqual({ line: 'end-of-life', esr: false });
    expect(osBadge('balenaOS 2.83.18+rev1', CATALOGUE)).toEqual({ line: 'end-of-life', esr: false });
    expect(osBadge('Resin OS 2.3.0+rev1', CATALOGUE)).toEqual({ line: 'outdated', esr: false });
  });
  it('marks ESR versions and judges them on the ESR line', () => {
    expect(osBadge('balenaOS 2025.7.0', CATALOGUE)).toEqual({ line: 'current', esr: true });
    expect(osBadge('balenaOS 2024.10.1', CATALOGUE)).toEqual({ line: 'sunset', esr: true });
    expect(osBadge('balenaOS 2024.7.0', CATALOGUE)).toEqual({ line: 'outdated', esr: true });
  });
  it('follows the catalogue, not constants: the same version is current in one catalogue and sunset in another', () => {
    const moved = CATALOGUE.map((v) => (v.raw_version.startsWith('6.0.10') ? { ...v, line: 'sunset', phase: 'sunset' } : v));
    expect(osBadge('balenaOS 6.0.10', moved)?.line).toBe('sunset');
  });
  it('gives no badge for a host OS that is not balenaOS or a type without OS releases', () => {
    expect(osBadge('Linux 6.8.0-45-generic', CATALOGUE)).toBeUndefined();
    expect(osBadge(null, CATALOGUE)).toBeUndefined();
    expect(osBadge('balenaOS 6.0.10', [])).toBeUndefined();
  });
});

describe('deviceOsVariant', () => {
  it('takes the reported variant, else the one in the version string', () => {
    expect(deviceOsVariant({ osVersion: 'balenaOS 6.0.10', osVariant: 'dev' })).toBe('dev');
    expect(deviceOsVariant({ osVersion: '6.0.10+rev0.prod', osVariant: null })).toBe('prod');
    expect(deviceOsVariant({ osVersion: 'balenaOS 6.0.10', osVariant: null })).toBeUndefined();
  });
});

describe('osUpdateOverview', () => {
  const device = (osVersion: string | null, osVariant: string | null = 'prod', isOnline = true) => ({ deviceType: 'raspberrypi3', isOnline, osVersion, osVariant });

  it('classifies against the newest version of its own line and variant, and lists the targets an update may start to', () => {
    const o = osUpdateOverview(device('balenaOS 5.3.21'), CATALOGUE);
    expect(o.recommended).toBe('6.1.0+rev0.prod');
    expect(o.classification).toMatchObject({ state: 'updatable', kind: 'balenahup' });
    // 2025.7.0 is based on 6.0.10, newer than 5.3.21: an ESR switch; 2024.x are based on 5.3.21: not offered.
    expect(o.targets.map((t) => [t.version, t.classification.state])).toEqual([
      ['2025.7.0+rev0.prod', 'updatableSwitchToEsr'],
      ['6.1.0+rev0.prod', 'updatable'],
      ['6.0.10+rev0.prod', 'updatable'],
    ]);
  });

  it('keeps to the variant the device runs', () => {
    const o = osUpdateOverview(device('balenaOS 6.0.10', 'dev'), CATALOGUE);
    expect(o.recommended).toBe('6.1.0+rev0.dev');
    expect(o.targets.map((t) => t.version)).toEqual(['6.1.0+rev0.dev']);
  });

  it('says up to date on the newest version; an ESR device is offered only newer ESR versions', () => {
    expect(osUpdateOverview(device('balenaOS 6.1.0'), CATALOGUE)).toMatchObject({ classification: { state: 'upToDate' }, targets: [] });
    const esr = osUpdateOverview(device('balenaOS 2024.10.1'), CATALOGUE);
    expect(esr.recommended).toBe('2025.7.0+rev0.prod');
    expect(esr.classification.state).toBe('updatable');
    expect(esr.targets.map((t) => t.version)).toEqual(['2025.7.0+rev0.prod']);
  });

  it('says offline with the reason but still lists what the device could take', () => {
    const o = osUpdateOverview(device('balenaOS 6.0.10', 'prod', false), CATALOGUE);
    expect(o.classification).toMatchObject({ state: 'offline', reason: 'device must be online' });
    expect(o.targets.map((t) => t.version)).toEqual(['6.1.0+rev0.prod']);
  });

  it('is not supported for a host OS that is not balenaOS or a type without OS releases, with the reason', () => {
    expect(osUpdateOverview(device('Linux 6.8.0'), CATALOGUE)).toMatchObject({ classification: { state: 'not supported' }, targets: [] });
    expect(osUpdateOverview(device('balenaOS 6.0.10'), [])).toMatchObject({
      classification: { state: 'not supported', reason: 'OS version not supported for device type' },
      targets: [],
    });
  });

  it('flags a takeover target of a type that re-partitions', () => {
    const o = osUpdateOverview({ ...device('balenaOS 5.3.21'), deviceType: 'jetson-nano' }, CATALOGUE);
    expect(o.targets.find((t) => t.version === '6.0.10+rev0.prod')?.classification.takeover).toBe(true);
    expect(o.targets.find((t) => t.version === '6.1.0+rev0.prod')?.classification.takeover).toBe(true);
    const pi = osUpdateOverview(device('balenaOS 5.3.21'), CATALOGUE);
    expect(pi.targets.every((t) => !t.classification.takeover)).toBe(true);
  });
});

describe('supervisorOverview', () => {
  const releases = SUPERVISOR_RELEASES.map((r, i) => ({ id: i + 1, raw_version: r.semver }));

  it('lists the newer releases, newest first', () => {
    expect(supervisorOverview({ osVersion: 'balenaOS 6.0.10', supervisorVersion: '14.0.0' }, releases)).toEqual({
      newer: [
        { id: 4, raw_version: '17.0.2' },
        { id: 3, raw_version: '16.4.6' },
        { id: 2, raw_version: '14.11.14' },
      ],
    });
  });

  it('blocks with the spec message when none is newer or the device cannot take one', () => {
    expect(supervisorOverview({ osVersion: 'balenaOS 6.0.10', supervisorVersion: '17.0.2' }, releases)).toEqual({ newer: [], block: 'already running this version' });
    expect(supervisorOverview({ osVersion: 'balenaOS 2024.10.1', supervisorVersion: '14.0.0' }, releases)).toEqual({ newer: [], block: 'Cannot update ESR supervisor' });
    expect(supervisorOverview({ osVersion: 'Linux 6.8.0', supervisorVersion: '14.0.0' }, releases)).toEqual({ newer: [], block: 'update not supported for type version' });
    expect(supervisorOverview({ osVersion: 'balenaOS 6.0.10', supervisorVersion: '6.0.0' }, releases).block).toBe('update not supported for type version');
  });

  it('blocks when the architecture has no supervisor releases', () => {
    expect(supervisorOverview({ osVersion: 'balenaOS 6.0.10', supervisorVersion: '14.0.0' }, [])).toEqual({ newer: [], block: 'update not supported for type version' });
  });
});

describe('osUpdateStartProblem', () => {
  it('is nothing when the action was triggered, else the spec message with the action error', () => {
    expect(osUpdateStartProblem({ status: 'triggered' })).toBeUndefined();
    expect(osUpdateStartProblem({ status: 'error', error: 'no host update hook' })).toBe('Cannot start the update process: no host update hook');
    expect(osUpdateStartProblem({ status: 'in_progress' })).toBe('Cannot start the update process');
    expect(osUpdateStartProblem(undefined)).toBe('Cannot start the update process');
  });
});

describe('osUpdateUnavailable', () => {
  const device = (osVersion: string, isOnline = true) => ({ deviceType: 'raspberrypi3', isOnline, osVersion, osVariant: 'prod' });
  it('needs an online device with a version to go to', () => {
    expect(osUpdateUnavailable(osUpdateOverview(device('balenaOS 6.0.10'), CATALOGUE))).toBeUndefined();
    expect(osUpdateUnavailable(osUpdateOverview(device('balenaOS 6.0.10', false), CATALOGUE))).toEqual({ reason: 'device must be online' });
    expect(osUpdateUnavailable(osUpdateOverview(device('Linux 6.8.0'), CATALOGUE))).toEqual({ reason: 'The device does not run a balenaOS version that can be updated' });
    expect(osUpdateUnavailable(osUpdateOverview(device('balenaOS 6.1.0'), CATALOGUE))).toEqual({ noTarget: true });
  });
});
