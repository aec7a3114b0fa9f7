import { describe, expect, it } from 'vitest';
import { diagnosticsFileName, isValidTerminalSize, parseTerminalTarget, targetStateVersionFor, terminalTarget } from './live-operations.js';

describe('live operations contracts', () => {
  it('names terminal targets without ambiguity', () => {
    expect(terminalTarget(null)).toBe('host');
    expect(terminalTarget('host')).toBe('service:host');
    expect(parseTerminalTarget('host')).toEqual({ service: null });
    expect(parseTerminalTarget('service:host')).toEqual({ service: 'host' });
    expect(parseTerminalTarget('service:')).toBeUndefined();
    expect(parseTerminalTarget('main')).toBeUndefined();
    expect(parseTerminalTarget(42)).toBeUndefined();
  });

  it('bounds terminal sizes', () => {
    expect(isValidTerminalSize(80, 24)).toBe(true);
    expect(isValidTerminalSize(0, 0)).toBe(false);
    expect(isValidTerminalSize(100_000, 100_000)).toBe(false);
    expect(isValidTerminalSize(80.5, 24)).toBe(false);
    expect(isValidTerminalSize('80', 24)).toBe(false);
  });

  it('reads target state v2 below supervisor 13.0.0 and v3 from it', () => {
    expect(targetStateVersionFor('12.11.0')).toBe(2);
    expect(targetStateVersionFor('v13.0.0')).toBe(3);
    expect(targetStateVersionFor('14.4.1')).toBe(3);
    expect(targetStateVersionFor(null)).toBe(2);
  });

  it('names the diagnostics download {uuid}_diagnostics_{timestamp}.txt', () => {
    expect(diagnosticsFileName('abc', new Date('2026-11-26T13:45:07.123Z'))).toBe('abc_diagnostics_2026-11-26T13-45-07-123Z.txt');
  });
});
