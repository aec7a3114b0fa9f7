import { describe, expect, it } from 'vitest';
import { supportAccessDefault } from '@flotilla/model';
import { fromDateTimeLocal, toDateTimeLocal } from '../../lib/datetime-local';
import { isClassicOrLegacy, supportAccessState } from './fleet-settings-rules';

const now = new Date('2026-03-10T12:00:00.000Z');

describe('supportAccessState', () => {
  it('is off without a date, on before it and expired after it', () => {
    expect(supportAccessState(null, now)).toBe('off');
    expect(supportAccessState('2026-03-11T00:00:00.000Z', now)).toBe('on');
    expect(supportAccessState('2026-03-10T12:00:00.000Z', now)).toBe('expired');
    expect(supportAccessState('2026-01-01T00:00:00.000Z', now)).toBe('expired');
  });
});

describe('support access date picker', () => {
  it('defaults to 5 days ahead', () => {
    expect(supportAccessDefault(now).toISOString()).toBe('2026-03-15T12:00:00.000Z');
  });
  it('round-trips a local date-time input value to the minute', () => {
    const local = new Date(2026, 2, 15, 9, 5);
    expect(toDateTimeLocal(local)).toBe('2026-03-15T09:05');
    expect(fromDateTimeLocal('2026-03-15T09:05')?.getTime()).toBe(local.getTime());
    expect(fromDateTimeLocal('')).toBeUndefined();
    expect(fromDateTimeLocal('tomorrow')).toBeUndefined();
  });
});

describe('isClassicOrLegacy', () => {
  it('blocks applications of a legacy type only', () => {
    expect(isClassicOrLegacy({ is_legacy: true })).toBe(true);
    expect(isClassicOrLegacy({ is_legacy: false })).toBe(false);
    expect(isClassicOrLegacy(null)).toBe(false);
  });
});
