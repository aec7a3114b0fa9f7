import { describe, expect, it } from 'vitest';
import { parseReleaseSemver, releaseDisplayStatus, releaseRawVersion, RUNNING_RELEASE_TIMEOUT_MINUTES } from './release.rules.js';

const now = new Date('2026-03-01T12:00:00.000Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

describe('releaseDisplayStatus', () => {
  it('times out after 120 minutes', () => {
    expect(RUNNING_RELEASE_TIMEOUT_MINUTES).toBe(120);
  });

  it('shows a running release without an update for over 120 minutes as timeout', () => {
    expect(releaseDisplayStatus('running', minutesAgo(121), now)).toBe('timeout');
    expect(releaseDisplayStatus('running', minutesAgo(120).toISOString(), now.toISOString())).toBe('running');
    expect(releaseDisplayStatus('running', minutesAgo(119).getTime(), now.getTime())).toBe('running');
  });

  it('keeps every other status whatever its age', () => {
    for (const status of ['success', 'failed', 'error', 'interrupted', 'cancelled', 'local', 'timeout'] as const) {
      expect(releaseDisplayStatus(status, minutesAgo(10_000), now)).toBe(status);
    }
  });

  it('keeps running when the update time is unknown', () => {
    expect(releaseDisplayStatus('running', null, now)).toBe('running');
  });
});

describe('parseReleaseSemver', () => {
  it('accepts MAJOR.MINOR.PATCH', () => {
    expect(parseReleaseSemver('1.22.333')).toEqual({ major: 1, minor: 22, patch: 333 });
    expect(parseReleaseSemver('0.0.0')).toEqual({ major: 0, minor: 0, patch: 0 });
  });

  it('refuses other shapes', () => {
    for (const v of ['1.2', '1.2.3.4', '1.2.3-beta', '1.2.3+rev1', 'v1.2.3', '01.2.3', '', '1..3', ' 1.2.3']) {
      expect(parseReleaseSemver(v), v).toBeUndefined();
    }
  });
});

describe('releaseRawVersion', () => {
  const created = new Date('2026-01-02T03:04:05.678Z');
  it('is the semver for the first final release of a version, +revN for later ones', () => {
    expect(releaseRawVersion({ semver: '1.2.3', is_final: true, revision: 0, created_at: created })).toBe('1.2.3');
    expect(releaseRawVersion({ semver: '1.2.3', is_final: true, revision: 2, created_at: created })).toBe('1.2.3+rev2');
  });

  it('is semver-<created_at ms> for a draft', () => {
    expect(releaseRawVersion({ semver: '0.0.0', is_final: false, revision: null, created_at: created })).toBe(`0.0.0-${created.getTime()}`);
  });
});
