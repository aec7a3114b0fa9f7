import type { DeviceLogLine } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { filterLogs, isFiltering, NO_LOG_FILTER, sourceOf, toggleSource, type LogFilter } from './log-filter';

const l = (message: string, extra: Partial<DeviceLogLine> = {}): DeviceLogLine => ({ message, timestamp: 1, createdAt: 1, isSystem: false, isStdErr: false, ...extra });
const lines = [
  l('Supervisor starting', { isSystem: true }),
  l('main says Hello', { serviceId: 1 }),
  l('worker says hello', { serviceId: 2 }),
  l('\u001b[31mred\u001b[0m alert', { serviceId: 2, isStdErr: true }),
];
const messages = (filter: LogFilter) => filterLogs(lines, filter).map((x) => x.message);

describe('log filter', () => {
  it('lets everything through by default (the same array)', () => {
    expect(isFiltering(NO_LOG_FILTER)).toBe(false);
    expect(filterLogs(lines, NO_LOG_FILTER)).toBe(lines);
  });

  it('hides a service or system lines', () => {
    expect(messages(toggleSource(NO_LOG_FILTER, 'system'))).toEqual(['main says Hello', 'worker says hello', '\u001b[31mred\u001b[0m alert']);
    expect(messages(toggleSource(NO_LOG_FILTER, 'service:2'))).toEqual(['Supervisor starting', 'main says Hello']);
    expect(messages(toggleSource(toggleSource(NO_LOG_FILTER, 'service:2'), 'service:2'))).toHaveLength(4);
  });

  it('matches text case-insensitively, ignoring ANSI escapes and surrounding blanks', () => {
    expect(messages({ ...NO_LOG_FILTER, text: ' HELLO ' })).toEqual(['main says Hello', 'worker says hello']);
    expect(messages({ ...NO_LOG_FILTER, text: 'red alert' })).toEqual(['\u001b[31mred\u001b[0m alert']);
    expect(messages({ ...NO_LOG_FILTER, text: '   ' })).toHaveLength(4);
  });

  it('combines sources and text', () => {
    expect(messages({ hidden: new Set(['service:1']), text: 'hello' })).toEqual(['worker says hello']);
  });

  it('files a line without service as a system line', () => {
    expect(sourceOf({ isSystem: false })).toBe('system');
    expect(sourceOf({ isSystem: false, serviceId: 3 })).toBe('service:3');
  });
});
