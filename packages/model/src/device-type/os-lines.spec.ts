import { describe, expect, it } from 'vitest';
import { isEsrVersion, OS_RELEASE_MILESTONES, osLine, osSemver } from './os-lines.js';

describe('osSemver', () => {
  it('reads balenaOS, resinOS and bare versions, with revisions', () => {
    expect(osSemver('balenaOS 6.0.10')).toEqual([6, 0, 10]);
    expect(osSemver('Resin OS 2.3.0+rev1')).toEqual([2, 3, 0]);
    expect(osSemver('2025.7.0')).toEqual([2025, 7, 0]);
    expect(osSemver('Linux 6.8.0-45-generic')).toBeUndefined();
    expect(osSemver(null)).toBeUndefined();
  });
});

describe('osLine', () => {
  it('places balenaOS versions against the current release and the oldest supported one', () => {
    expect(osLine(`balenaOS ${OS_RELEASE_MILESTONES.balenaOS.current}`)).toBe('current');
    expect(osLine('balenaOS 6.1.0')).toBe('next');
    expect(osLine('balenaOS 6.0.9')).toBe('sunset');
    expect(osLine('balenaOS 5.0.0')).toBe('sunset');
    expect(osLine('balenaOS 4.9.99')).toBe('outdated');
    expect(osLine('Resin OS 2.3.0+rev1')).toBe('outdated');
  });

  it('judges ESR versions on the ESR line', () => {
    expect(isEsrVersion('balenaOS 2025.7.0')).toBe(true);
    expect(isEsrVersion('balenaOS 6.0.10')).toBe(false);
    expect(osLine('balenaOS 2025.7.0')).toBe('current');
    expect(osLine('balenaOS 2026.1.0')).toBe('next');
    expect(osLine('balenaOS 2024.10.1')).toBe('sunset');
    expect(osLine('balenaOS 2023.1.0')).toBe('outdated');
  });

  it('gives no line for a host OS that is not balenaOS', () => {
    expect(osLine('Linux 6.8.0')).toBeUndefined();
    expect(osLine(undefined)).toBeUndefined();
  });
});
