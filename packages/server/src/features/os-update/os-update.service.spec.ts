import { describe, expect, it } from 'vitest';
import { deviceReason, pickTargetRelease } from './os-update.service.js';
import type { CatalogueOsReleaseRow } from './os-update.repository.js';

const rel = (id: number, raw_version: string): CatalogueOsReleaseRow => ({ id, raw_version, version: raw_version.replace(/\.(prod|dev)$/, ''), esr: false, based_on: null, image: null });
const releases = [rel(1, '6.0.10+rev0.prod'), rel(2, '6.0.10+rev0.dev'), rel(3, '6.1.0+rev0.prod'), rel(4, '6.1.0+rev0.dev'), rel(5, '2.83.18+rev1.prod')];

describe('the release an OS update installs', () => {
  it("takes the target's variant, else the device's, else prod", () => {
    expect(pickTargetRelease(releases, '6.1.0+rev0.dev', 'prod')?.id).toBe(4);
    expect(pickTargetRelease(releases, '6.1.0+rev0', 'dev')?.id).toBe(4);
    expect(pickTargetRelease(releases, '6.1.0', null)?.id).toBe(3);
  });

  it('matches the version with its revision, and nothing for an unknown or malformed one', () => {
    expect(pickTargetRelease(releases, '2.83.18+rev1.prod', 'prod')?.id).toBe(5);
    expect(pickTargetRelease(releases, '2.83.18+rev0.prod', 'prod')).toBeUndefined();
    expect(pickTargetRelease(releases, '7.0.0', 'prod')).toBeUndefined();
    expect(pickTargetRelease(releases, 'latest', 'prod')).toBeUndefined();
  });
});

describe("the device's reason for not starting", () => {
  it("is its supervisor-shaped error, the relay's text, or its status", () => {
    expect(deviceReason({ status: 501, body: { Data: null, Error: 'no hook' } })).toBe('no hook');
    expect(deviceReason({ status: 504, body: 'The device did not answer' })).toBe('the device did not answer');
    expect(deviceReason({ status: 502, body: 'The device disconnected' })).toBe('the device disconnected');
    expect(deviceReason({ status: 500, body: null })).toBe('the device answered HTTP 500');
  });
});
