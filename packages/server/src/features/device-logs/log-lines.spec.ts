import { describe, expect, it } from 'vitest';
import { LOG_LIMITS } from '@flotilla/model';
import { cutMessage, normalizeLogLine, toReaderLine } from './log-lines.js';

describe('normalizeLogLine', () => {
  it('keeps a device line, with flags only when true and a valid serviceId', () => {
    expect(normalizeLogLine({ message: 'hi', timestamp: 1700000000000.7, isSystem: true, isStdErr: 'yes', serviceId: 12 })).toEqual({
      message: 'hi',
      timestamp: 1700000000000,
      isSystem: true,
      isStdErr: false,
      serviceId: 12,
    });
    expect(normalizeLogLine({ message: 'x', timestamp: 1, serviceId: -3 })?.serviceId).toBeNull();
    expect(normalizeLogLine({ message: 'x', timestamp: 1, serviceId: 2 ** 40 })?.serviceId).toBeNull();
  });

  it('refuses what is not a log line', () => {
    for (const v of [null, 1, 'text', [], { message: 1, timestamp: 1 }, { message: 'x' }, { message: 'x', timestamp: Infinity }, { message: 'x', timestamp: 1, uuid: 'dep' }]) {
      expect(normalizeLogLine(v)).toBeUndefined();
    }
  });

  it('refuses a timestamp no date can hold (the fuzzer\'s 1e20 failed the whole batch insert)', () => {
    for (const timestamp of [1e20, -1e20, 8.64e15 + 1, Number.MAX_VALUE]) expect(normalizeLogLine({ message: 'x', timestamp })).toBeUndefined();
    expect(normalizeLogLine({ message: 'x', timestamp: 8.64e15 })?.timestamp).toBe(8.64e15);
  });

  it('cuts messages at 10,000 characters and makes them storable', () => {
    expect(cutMessage('a'.repeat(LOG_LIMITS.maxMessageChars + 50))).toHaveLength(LOG_LIMITS.maxMessageChars);
    // A surrogate pair on the cut is not split.
    const pair = `${'a'.repeat(LOG_LIMITS.maxMessageChars - 1)}😀`;
    expect(cutMessage(pair)).toBe('a'.repeat(LOG_LIMITS.maxMessageChars - 1));
    expect(cutMessage('a\u0000b\ud800c')).toBe('a\ufffdb\ufffdc');
  });
});

describe('toReaderLine', () => {
  it('is the dialect shape, serviceId only when present', () => {
    expect(toReaderLine({ id: 4, message: 'm', timestamp: 1, createdAt: 2, isSystem: false, isStdErr: true })).toEqual({ message: 'm', timestamp: 1, createdAt: 2, isSystem: false, isStdErr: true });
    expect(toReaderLine({ id: 4, message: 'm', timestamp: 1, createdAt: 2, isSystem: false, isStdErr: true, serviceId: 9 }).serviceId).toBe(9);
  });
});
