import { LOG_PANEL, type DeviceLogLine } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { appendLogs, EMPTY_LOG_BUFFER, isLogLine } from './log-buffer';

const line = (n: number, extra: Partial<DeviceLogLine> = {}): DeviceLogLine => ({
  message: `line ${n}`,
  timestamp: 1_700_000_000_000 + n,
  createdAt: 1_700_000_000_000 + n,
  isSystem: false,
  isStdErr: false,
  serviceId: 1,
  ...extra,
});
const many = (n: number, from = 0) => Array.from({ length: n }, (_, i) => line(from + i));

describe('log buffer', () => {
  it('keeps lines in arrival order with increasing keys', () => {
    const b = appendLogs(appendLogs(EMPTY_LOG_BUFFER, many(2)), many(2, 2));
    expect(b.lines.map((l) => l.message)).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
    expect(b.lines.map((l) => l.seq)).toEqual([0, 1, 2, 3]);
    expect(b.nextSeq).toBe(4);
  });

  it('holds 5000 lines and drops the oldest beyond them', () => {
    expect(LOG_PANEL.bufferLines).toBe(5000);
    let b = appendLogs(EMPTY_LOG_BUFFER, many(4990));
    b = appendLogs(b, many(20, 4990));
    expect(b.lines).toHaveLength(5000);
    expect(b.lines[0]!.message).toBe('line 10');
    expect(b.lines.at(-1)!.message).toBe('line 5009');
    expect(b.lines[0]!.seq).toBe(10);
  });

  it('keeps only the newest of a batch larger than the buffer', () => {
    const b = appendLogs(EMPTY_LOG_BUFFER, many(12), 5);
    expect(b.lines.map((l) => l.message)).toEqual(['line 7', 'line 8', 'line 9', 'line 10', 'line 11']);
    expect(b.lines.map((l) => l.seq)).toEqual([7, 8, 9, 10, 11]);
    expect(b.nextSeq).toBe(12);
  });

  it('leaves the buffer untouched (pure) and returns it for no lines', () => {
    const a = appendLogs(EMPTY_LOG_BUFFER, many(3));
    const b = appendLogs(a, many(1, 3));
    expect(a.lines).toHaveLength(3);
    expect(b.lines).toHaveLength(4);
    expect(appendLogs(a, [])).toBe(a);
  });

  it('reads missing flags as false and keeps a missing serviceId missing', () => {
    const b = appendLogs(EMPTY_LOG_BUFFER, [{ message: 'sys', timestamp: 1, createdAt: 1 } as DeviceLogLine]);
    expect(b.lines[0]).toEqual({ message: 'sys', timestamp: 1, createdAt: 1, isSystem: false, isStdErr: false, seq: 0 });
  });

  it('tells a line from anything else the stream might carry', () => {
    expect(isLogLine(line(1))).toBe(true);
    expect(isLogLine({ message: 'x' })).toBe(false);
    expect(isLogLine({ message: 1, timestamp: 2 })).toBe(false);
    expect(isLogLine({ message: 'x', timestamp: Number.NaN })).toBe(false);
    expect(isLogLine(null)).toBe(false);
    expect(isLogLine('\n')).toBe(false);
  });
});
