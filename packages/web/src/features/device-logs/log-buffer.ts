import { LOG_PANEL, type DeviceLogLine } from '@flotilla/model';

/** A line the panel shows: the line as read, with a key that stays the same while it is kept. */
export interface LogEntry extends DeviceLogLine {
  /** Increases by one per line received; React's key and the virtual list's item key. */
  seq: number;
}

/** The panel's buffer (spec 2 §9: 5000 lines, the oldest dropped first). */
export interface LogBuffer {
  lines: readonly LogEntry[];
  /** The next line's `seq`. */
  nextSeq: number;
}

export const EMPTY_LOG_BUFFER: LogBuffer = { lines: [], nextSeq: 0 };

/**
 * Whether `value` is a line the panel can show: the reader's shape (dialect §4.5) with a string
 * message and a finite timestamp. Anything else (a keep-alive the parser passed on, a
 * malformed object) is skipped rather than breaking the panel.
 */
export function isLogLine(value: unknown): value is DeviceLogLine {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<DeviceLogLine>;
  return typeof v.message === 'string' && typeof v.timestamp === 'number' && Number.isFinite(v.timestamp);
}

/**
 * Appends lines in the order they arrived; keeps the newest `cap` (the panel's 5000). Pure: a
 * new buffer, the old one untouched. Missing flags read as false.
 */
export function appendLogs(buffer: LogBuffer, incoming: readonly DeviceLogLine[], cap: number = LOG_PANEL.bufferLines): LogBuffer {
  if (incoming.length === 0) return buffer;
  // Only the newest `cap` of a large batch can be kept; the skipped ones still use up a seq.
  const skipped = Math.max(0, incoming.length - cap);
  let seq = buffer.nextSeq + skipped;
  const added: LogEntry[] = [];
  for (const line of skipped > 0 ? incoming.slice(skipped) : incoming) {
    added.push({
      message: line.message,
      timestamp: line.timestamp,
      createdAt: line.createdAt,
      isSystem: line.isSystem === true,
      isStdErr: line.isStdErr === true,
      ...(typeof line.serviceId === 'number' ? { serviceId: line.serviceId } : {}),
      seq: seq++,
    });
  }
  const keep = Math.max(0, cap - added.length);
  const kept = buffer.lines.length > keep ? buffer.lines.slice(buffer.lines.length - keep) : buffer.lines;
  return { lines: kept.concat(added), nextSeq: seq };
}
