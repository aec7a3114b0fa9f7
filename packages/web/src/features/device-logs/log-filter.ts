import type { DeviceLogLine } from '@flotilla/model';
import { stripAnsi } from './log-format';

/** A source of lines the filter can hide: system lines, or one service's lines. */
export type LogSource = 'system' | `service:${number}`;

export function sourceOf(line: Pick<DeviceLogLine, 'isSystem' | 'serviceId'>): LogSource {
  return line.isSystem || line.serviceId === undefined ? 'system' : `service:${line.serviceId}`;
}

/**
 * The panel's filter (spec 2 §2 "filterable"): sources the user switched off, and a text.
 * By default every source shows, so lines of a service that appears later show too.
 */
export interface LogFilter {
  hidden: ReadonlySet<LogSource>;
  /** Matched case-insensitively against the message without ANSI escapes; blank matches all. */
  text: string;
}

export const NO_LOG_FILTER: LogFilter = { hidden: new Set(), text: '' };

export function isFiltering(filter: LogFilter): boolean {
  return filter.hidden.size > 0 || filter.text.trim() !== '';
}

/** The lines the filter lets through, in order; the same array when nothing is filtered. */
export function filterLogs<L extends DeviceLogLine>(lines: readonly L[], filter: LogFilter): readonly L[] {
  if (!isFiltering(filter)) return lines;
  const needle = filter.text.trim().toLowerCase();
  return lines.filter((line) => {
    if (filter.hidden.size > 0 && filter.hidden.has(sourceOf(line))) return false;
    return needle === '' || stripAnsi(line.message).toLowerCase().includes(needle);
  });
}

/** Shows or hides one source. */
export function toggleSource(filter: LogFilter, source: LogSource): LogFilter {
  const hidden = new Set(filter.hidden);
  if (hidden.has(source)) hidden.delete(source);
  else hidden.add(source);
  return { ...filter, hidden };
}
