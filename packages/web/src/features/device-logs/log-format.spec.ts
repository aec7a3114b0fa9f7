import { describe, expect, it } from 'vitest';
import { formatLogTimestamp, lineSource, logsAsText, logsFileName, stripAnsi } from './log-format';

const at = Date.UTC(2026, 10, 26, 13, 35, 19, 123);

describe('log timestamps', () => {
  it('are ISO with the zone offset by default', () => {
    expect(formatLogTimestamp(at, false, 60)).toBe('2026-11-26T14:35:19.123+01:00');
    expect(formatLogTimestamp(at, false, -330)).toBe('2026-11-26T08:05:19.123-05:30');
    expect(formatLogTimestamp(at, false, 0)).toBe('2026-11-26T13:35:19.123+00:00');
  });

  it('are ISO in UTC in UTC mode', () => {
    expect(formatLogTimestamp(at, true, 60)).toBe('2026-11-26T13:35:19.123Z');
  });

  it('use the reader zone when no offset is given', () => {
    const text = formatLogTimestamp(at, false);
    expect(Date.parse(text)).toBe(at);
  });

  it('are empty for an invalid time', () => {
    expect(formatLogTimestamp(Number.NaN, false)).toBe('');
  });
});

describe('ANSI escapes', () => {
  it('are removed (colours, cursor moves, titles)', () => {
    expect(stripAnsi('\u001b[31mred\u001b[0m plain \u001b[1;32mbold green\u001b[m')).toBe('red plain bold green');
    expect(stripAnsi('\u001b[2K\u001b[1Gprogress')).toBe('progress');
    expect(stripAnsi('\u001b]0;title\u0007after')).toBe('after');
    expect(stripAnsi('no escapes [31m')).toBe('no escapes [31m');
  });
});

describe('line source', () => {
  const names = new Map([[7, 'main']]);
  it('names the service, System, or an unknown service by id', () => {
    expect(lineSource({ isSystem: false, serviceId: 7 }, names, 'System')).toBe('main');
    expect(lineSource({ isSystem: true, serviceId: 7 }, names, 'System')).toBe('System');
    expect(lineSource({ isSystem: false }, names, 'System')).toBe('System');
    expect(lineSource({ isSystem: false, serviceId: 9 }, names, 'System')).toBe('service 9');
  });
});

describe('download', () => {
  const names = new Map([[7, 'main']]);
  it('writes one line per entry with timestamp and service, stderr marked', () => {
    const text = logsAsText(
      [
        { message: 'Supervisor starting', timestamp: at, createdAt: at, isSystem: true, isStdErr: false },
        { message: '\u001b[32mhello\u001b[0m\n', timestamp: at + 1, createdAt: at + 1, isSystem: false, isStdErr: false, serviceId: 7 },
        { message: 'oops\nstack', timestamp: at + 2, createdAt: at + 2, isSystem: false, isStdErr: true, serviceId: 7 },
      ],
      names,
      { utc: true },
    );
    expect(text).toBe(
      '2026-11-26T13:35:19.123Z [System] Supervisor starting\n' +
        '2026-11-26T13:35:19.124Z [main] hello\n' +
        '2026-11-26T13:35:19.125Z [main] (stderr) oops\n    stack\n',
    );
  });

  it('is empty for no lines', () => {
    expect(logsAsText([], names, { utc: true })).toBe('');
  });

  it('is named {uuid}_logs_{timestamp}.txt', () => {
    expect(logsFileName('abc123', new Date(at))).toBe('abc123_logs_2026-11-26T13-35-19-123Z.txt');
  });
});
