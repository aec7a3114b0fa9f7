import { describe, expect, it } from 'vitest';
import { checkOsReleasePublish, OS_PUBLISH_MESSAGES, OS_RELEASE_TEXT_MAX } from './os-publish.js';

const base = { deviceType: 'raspberrypi3', version: '6.2.0', variant: 'prod' };

describe('checkOsReleasePublish', () => {
  it('makes a default-line release with its own base and an ESR release with the given base', () => {
    expect(checkOsReleasePublish({ ...base, version: '6.2.0+rev2', phase: 'next', releaseNotes: ' New kernel. ' }).release).toEqual({
      deviceType: 'raspberrypi3',
      esr: false,
      semver: '6.2.0',
      revision: 2,
      variant: 'prod',
      phase: 'next',
      basedOn: '6.2.0',
      knownIssues: null,
      note: 'New kernel.',
    });
    expect(checkOsReleasePublish({ ...base, version: '2026.1.0', variant: 'dev', basedOn: '6.1.0' }).release).toMatchObject({ esr: true, basedOn: '6.1.0', phase: null, revision: 0 });
  });

  it('refuses with the first reason', () => {
    const cases: [object, string][] = [
      [{ deviceType: 'nope' }, OS_PUBLISH_MESSAGES.unknownDeviceType],
      [{ deviceType: 'fincm3' }, OS_PUBLISH_MESSAGES.discontinued],
      [{ version: '6.2' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ version: 'balenaOS 6.2.0' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ version: '6.2.0-beta' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ version: '6.2.0+rev0.prod' }, OS_PUBLISH_MESSAGES.badVersion],
      [{ variant: 'debug' }, OS_PUBLISH_MESSAGES.badVariant],
      [{ phase: 'soon' }, OS_PUBLISH_MESSAGES.badPhase],
      [{ version: '2026.1.0', phase: 'current', basedOn: '6.1.0' }, OS_PUBLISH_MESSAGES.esrPhase],
      [{ version: '2026.1.0' }, OS_PUBLISH_MESSAGES.esrWithoutBase],
      [{ version: '2026.1.0', basedOn: '2025.7.0' }, OS_PUBLISH_MESSAGES.badBase],
      [{ basedOn: '6.1.0' }, OS_PUBLISH_MESSAGES.baseOnDefault],
      [{ knownIssues: 'x'.repeat(OS_RELEASE_TEXT_MAX + 1) }, OS_PUBLISH_MESSAGES.tooLong],
    ];
    for (const [change, message] of cases) expect(checkOsReleasePublish({ ...base, ...change }).error, JSON.stringify(change)).toBe(message);
  });

  it('refuses a version and variant the fleet has, and takes the other variant or revision', () => {
    const existing = ['6.2.0+rev0.prod'];
    expect(checkOsReleasePublish(base, existing).error).toBe(OS_PUBLISH_MESSAGES.exists);
    expect(checkOsReleasePublish({ ...base, version: '6.2.0+rev0' }, existing).error).toBe(OS_PUBLISH_MESSAGES.exists);
    expect(checkOsReleasePublish({ ...base, variant: 'dev' }, existing).release).toBeDefined();
    expect(checkOsReleasePublish({ ...base, version: '6.2.0+rev1' }, existing).release).toBeDefined();
  });
});
