import { format } from 'date-fns/format';
import { describe, expect, it } from 'vitest';
import { formatDate, formatRelative } from './date-format';

/** A local time (the formatter shows the reader's time zone). */
const local = (y: number, mo: number, d: number, h: number, mi: number) => new Date(y, mo - 1, d, h, mi, 0);

describe('formatDate (spec 3 §9: MMM do yyyy, h:mm a)', () => {
  it('formats with an ordinal day and a 12-hour clock', () => {
    expect(formatDate(local(2026, 11, 26, 1, 14))).toBe('Nov 26th 2026, 1:14 AM');
    expect(formatDate(local(2026, 1, 1, 0, 5))).toBe('Jan 1st 2026, 12:05 AM');
    expect(formatDate(local(2026, 2, 2, 12, 0))).toBe('Feb 2nd 2026, 12:00 PM');
    expect(formatDate(local(2026, 3, 3, 13, 30))).toBe('Mar 3rd 2026, 1:30 PM');
    expect(formatDate(local(2026, 4, 11, 23, 59))).toBe('Apr 11th 2026, 11:59 PM');
    expect(formatDate(local(2026, 5, 12, 9, 1))).toBe('May 12th 2026, 9:01 AM');
    expect(formatDate(local(2026, 6, 13, 9, 1))).toBe('Jun 13th 2026, 9:01 AM');
    expect(formatDate(local(2026, 7, 21, 9, 1))).toBe('Jul 21st 2026, 9:01 AM');
    expect(formatDate(local(2026, 8, 22, 9, 1))).toBe('Aug 22nd 2026, 9:01 AM');
    expect(formatDate(local(2026, 12, 31, 9, 1))).toBe('Dec 31st 2026, 9:01 AM');
  });

  it('takes ISO strings and epoch milliseconds; missing or invalid values give undefined', () => {
    const date = local(2025, 9, 23, 15, 7);
    expect(formatDate(date.toISOString())).toBe('Sep 23rd 2025, 3:07 PM');
    expect(formatDate(date.getTime())).toBe('Sep 23rd 2025, 3:07 PM');
    for (const bad of [null, undefined, '', 'not a date']) expect(formatDate(bad)).toBeUndefined();
  });
});

describe('formatDate against date-fns', () => {
  // date-fns stays out of the bundle (it adds 5.1 kB gzip to every page that shows a date:
  // docs/decisions.md); its `format` with the spec's format string is the oracle instead.
  it("agrees with date-fns format(date, 'MMM do yyyy, h:mm a') on every day and hour of a leap year", () => {
    for (let day = 0; day < 366; day++) {
      for (const [hour, minute] of [[0, 0], [1, 5], [11, 59], [12, 0], [12, 30], [13, 1], [23, 59]] as const) {
        const date = new Date(2028, 0, 1 + day, hour, minute);
        expect(formatDate(date)).toBe(format(date, 'MMM do yyyy, h:mm a'));
      }
    }
    for (const year of [1999, 2000, 2038, 2100]) {
      const date = new Date(year, 10, 3, 7, 9);
      expect(formatDate(date)).toBe(format(date, 'MMM do yyyy, h:mm a'));
    }
  });
});

describe('formatRelative', () => {
  const now = local(2026, 11, 26, 12, 0).getTime();
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const s = 1_000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;

  it('says how long ago in the largest sensible unit', () => {
    expect(formatRelative(ago(0), now)).toBe('a few seconds ago');
    expect(formatRelative(ago(44 * s), now)).toBe('a few seconds ago');
    expect(formatRelative(ago(60 * s), now)).toBe('a minute ago');
    expect(formatRelative(ago(5 * m), now)).toBe('5 minutes ago');
    expect(formatRelative(ago(10 * m), now)).toBe('10 minutes ago');
    expect(formatRelative(ago(60 * m), now)).toBe('an hour ago');
    expect(formatRelative(ago(3 * h), now)).toBe('3 hours ago');
    expect(formatRelative(ago(30 * h), now)).toBe('a day ago');
    expect(formatRelative(ago(12 * d), now)).toBe('12 days ago');
    expect(formatRelative(ago(30 * d), now)).toBe('a month ago');
    expect(formatRelative(ago(120 * d), now)).toBe('4 months ago');
    expect(formatRelative(ago(365 * d), now)).toBe('a year ago');
    expect(formatRelative(ago(800 * d), now)).toBe('2 years ago');
  });

  it('says "in …" for the future and undefined for nothing', () => {
    expect(formatRelative(new Date(now + 5 * m), now)).toBe('in 5 minutes');
    expect(formatRelative(null, now)).toBeUndefined();
  });
});
