import { DEFAULT_OS_RELEASES, ESR_OS_RELEASES, OS_VARIANTS, osReleaseRawVersion, SUPERVISOR_RELEASES } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import {
  groupOsTargets,
  groupSummary,
  groupSupervisorTargets,
  osEligibility,
  osGroupVersion,
  runGroupUpdate,
  supervisorEligibility,
  type GroupDevice,
  type GroupOutcome,
} from './os-group-rules';
import type { CatalogueOsVersion } from './os-rules';

/** The seeded catalogue as balena-sdk's os.getAvailableOsVersions returns it. */
const CATALOGUE: CatalogueOsVersion[] = OS_VARIANTS.flatMap((variant) => [
  ...DEFAULT_OS_RELEASES.map((r) => ({ raw_version: osReleaseRawVersion(r, variant), variant, osType: 'default', phase: r.phase ?? null, line: r.phase ?? null })),
  ...ESR_OS_RELEASES.map((r) => ({ raw_version: osReleaseRawVersion(r, variant), variant, osType: 'esr', phase: null, line: 'current', basedOnVersion: r.basedOn! })),
]);
const TYPE = 'raspberrypi4-64';
const BY_TYPE = new Map([[TYPE, CATALOGUE]]);
const SUPERVISORS = SUPERVISOR_RELEASES.map((r, i) => ({ id: i + 1, raw_version: r.semver }));
const BY_ARCH = new Map([['aarch64', SUPERVISORS]]);

let nextId = 1;
const device = (over: Partial<GroupDevice> = {}): GroupDevice => {
  const id = nextId++;
  return {
    id,
    uuid: `uuid${id}`,
    name: `device-${id}`,
    deviceType: TYPE,
    architecture: 'aarch64',
    isOnline: true,
    osVersion: 'balenaOS 6.0.10',
    osVariant: 'prod',
    supervisorVersion: '14.0.0',
    ...over,
  };
};

describe('osGroupVersion', () => {
  it('drops the variant of a catalogue version and keeps the rest', () => {
    expect(osGroupVersion('6.1.0+rev0.prod')).toBe('6.1.0+rev0');
    expect(osGroupVersion('2.83.18+rev1.dev')).toBe('2.83.18+rev1');
    expect(osGroupVersion('6.1.0+rev0')).toBe('6.1.0+rev0');
  });
});

describe('groupOsTargets', () => {
  it('offers every version some selected device may take, without variant, newest first', () => {
    const targets = groupOsTargets([device(), device({ osVariant: 'dev' }), device({ osVersion: 'balenaOS 5.3.21' })], BY_TYPE);
    expect(targets).toEqual(['2025.7.0+rev0', '6.1.0+rev0', '6.0.10+rev0']);
  });
  it('judges offline devices as if online, and offers nothing for a type without a catalogue or a device up to date', () => {
    expect(groupOsTargets([device({ isOnline: false })], BY_TYPE)).toEqual(['6.1.0+rev0']);
    expect(groupOsTargets([device({ deviceType: 'unknown-type' })], BY_TYPE)).toEqual([]);
    expect(groupOsTargets([device({ osVersion: 'balenaOS 6.1.0' })], BY_TYPE)).toEqual([]);
  });
});

describe('osEligibility', () => {
  it('lets an online device on an older OS of either variant update to the version without variant', () => {
    expect(osEligibility(device(), '6.1.0+rev0', CATALOGUE)).toEqual({ eligible: true, takeover: false, esrSwitch: false });
    expect(osEligibility(device({ osVariant: 'dev' }), '6.1.0+rev0', CATALOGUE)).toEqual({ eligible: true, takeover: false, esrSwitch: false });
  });
  it('says why a device is not eligible: offline, up to date, ESR rules, not supported, not available', () => {
    expect(osEligibility(device({ isOnline: false }), '6.1.0+rev0', CATALOGUE)).toEqual({ eligible: false, state: 'offline', reason: 'device must be online' });
    expect(osEligibility(device({ osVersion: 'balenaOS 6.1.0' }), '6.1.0+rev0', CATALOGUE)).toEqual({ eligible: false, state: 'upToDate' });
    expect(osEligibility(device({ osVersion: 'balenaOS 2024.10.1' }), '6.1.0+rev0', CATALOGUE)).toEqual({
      eligible: false,
      state: 'forbiddenSwitchToNonEsr',
      reason: 'A device on an ESR line cannot switch to a non-ESR OS',
    });
    expect(osEligibility(device({ osVersion: 'balenaOS 6.1.0' }), '6.0.10+rev0', CATALOGUE)).toMatchObject({ eligible: false, state: 'not supported', reason: 'OS downgrades are not allowed' });
    expect(osEligibility(device({ osVersion: 'Linux 6.8.0' }), '6.1.0+rev0', CATALOGUE)).toMatchObject({ eligible: false, state: 'not supported' });
    expect(osEligibility(device(), '7.0.0+rev0', CATALOGUE)).toMatchObject({ eligible: false, state: 'versionNotAvailable' });
  });
  it('marks an ESR switch and a takeover', () => {
    expect(osEligibility(device({ osVersion: 'balenaOS 5.3.21' }), '2025.7.0+rev0', CATALOGUE)).toEqual({ eligible: true, takeover: false, esrSwitch: true });
    expect(osEligibility(device({ deviceType: 'jetson-nano', osVersion: 'balenaOS 5.3.21' }), '6.1.0+rev0', CATALOGUE)).toEqual({ eligible: true, takeover: true, esrSwitch: false });
  });
});

describe('supervisor group rules', () => {
  it('offers the newer releases of the selection, newest first', () => {
    expect(groupSupervisorTargets([device(), device({ supervisorVersion: '16.4.6' })], BY_ARCH)).toEqual(['17.0.2', '16.4.6', '14.11.14']);
    expect(groupSupervisorTargets([device({ supervisorVersion: '17.0.2' }), device({ architecture: 'armv7hf' })], BY_ARCH)).toEqual([]);
  });
  it("gives the architecture's release, or the spec's block: same, older, ESR, unsupported, missing release", () => {
    expect(supervisorEligibility(device(), '17.0.2', SUPERVISORS)).toEqual({ eligible: true, releaseId: 4 });
    expect(supervisorEligibility(device({ isOnline: false }), '17.0.2', SUPERVISORS)).toEqual({ eligible: true, releaseId: 4 });
    expect(supervisorEligibility(device({ supervisorVersion: '17.0.2' }), '17.0.2', SUPERVISORS)).toEqual({ eligible: false, reason: 'already running this version' });
    expect(supervisorEligibility(device({ supervisorVersion: '17.0.2' }), '16.4.6', SUPERVISORS)).toEqual({ eligible: false, reason: 'The supervisor can only be updated to a newer version' });
    expect(supervisorEligibility(device({ osVersion: 'balenaOS 2024.10.1' }), '17.0.2', SUPERVISORS)).toEqual({ eligible: false, reason: 'Cannot update ESR supervisor' });
    expect(supervisorEligibility(device({ supervisorVersion: '6.0.0' }), '17.0.2', SUPERVISORS)).toEqual({ eligible: false, reason: 'update not supported for type version' });
    expect(supervisorEligibility(device(), '18.0.0', SUPERVISORS)).toEqual({ eligible: false, reason: 'update not supported for type version' });
  });
});

describe('runGroupUpdate and groupSummary', () => {
  it('starts only the eligible devices; a refusal does not stop the others; the summary counts and explains', async () => {
    const devices = [device(), device({ isOnline: false }), device(), device(), device()];
    const started: string[] = [];
    const seen: GroupOutcome[] = [];
    const outcomes = await runGroupUpdate(
      devices,
      (d) => (d.isOnline ? undefined : 'Offline — device must be online'),
      async (d) => {
        if (d === devices[2]) throw new Error('Cannot start the update process: OS downgrades are not allowed');
        started.push(d.uuid);
      },
      (e) => (e as Error).message,
      (o) => seen.push(o),
    );
    expect(started).toEqual([devices[0]!.uuid, devices[3]!.uuid, devices[4]!.uuid]);
    expect(outcomes.map((o) => o.status)).toEqual(['started', 'skipped', 'refused', 'started', 'started']);
    expect(seen).toHaveLength(5);
    expect(groupSummary(outcomes)).toEqual({
      started: 3,
      skipped: [{ name: devices[1]!.name, reason: 'Offline — device must be online' }],
      refused: [{ name: devices[2]!.name, reason: 'Cannot start the update process: OS downgrades are not allowed' }],
    });
  });
  it('has at most `concurrency` starts in flight', async () => {
    const devices = Array.from({ length: 25 }, () => device());
    let inFlight = 0;
    let most = 0;
    const outcomes = await runGroupUpdate(
      devices,
      () => undefined,
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
      },
      String,
    );
    expect(most).toBe(10);
    expect(groupSummary(outcomes).started).toBe(25);
  });
});
