import { LOG_LIMITS, type DeviceLogInput } from '@flotilla/model';

/**
 * The agent's bounded buffer of log lines waiting for the log stream (dialect §4.5). While
 * the stream is down, backing off or slower than the device, lines wait here; past
 * `maxLines` the oldest go and the next batch starts with one system line saying how many
 * (balena-supervisor's "Suppressed … message(s)" warning), so memory stays bounded and the
 * reader knows there is a gap.
 */

export const DEFAULT_QUEUE_LINES = 1_000;

/** A message cut to the server's limit (10,000 characters); timestamps made whole ms. */
export function normalizeLine(line: DeviceLogInput): DeviceLogInput {
  const out: DeviceLogInput = {
    message: line.message.length > LOG_LIMITS.maxMessageChars ? line.message.slice(0, LOG_LIMITS.maxMessageChars) : line.message,
    timestamp: Math.floor(line.timestamp),
  };
  if (line.isSystem) out.isSystem = true;
  if (line.isStdErr) out.isStdErr = true;
  if (line.serviceId !== undefined) out.serviceId = line.serviceId;
  return out;
}

export function droppedNotice(count: number, timestamp: number): DeviceLogInput {
  return { message: `Warning: Suppressed ${count} message(s) due to high load`, timestamp, isSystem: true, isStdErr: true };
}

export class LogQueue {
  private items: DeviceLogInput[] = [];
  private head = 0;
  /** Lines dropped since the last notice went out. */
  dropped = 0;
  /** Lines dropped since the queue was made. */
  droppedTotal = 0;

  constructor(
    readonly maxLines = DEFAULT_QUEUE_LINES,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(maxLines) || maxLines < 1) throw new RangeError('maxLines must be a positive integer');
  }

  get size(): number {
    return this.items.length - this.head + (this.dropped > 0 ? 1 : 0);
  }

  push(line: DeviceLogInput): void {
    if (this.items.length - this.head >= this.maxLines) {
      this.head++;
      this.dropped++;
      this.droppedTotal++;
    }
    this.items.push(normalizeLine(line));
    // Compact now and then so the array does not grow with the head.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Up to `max` lines, oldest first; a drop notice (if any) comes first and counts as one. */
  take(max = Infinity): DeviceLogInput[] {
    const out: DeviceLogInput[] = [];
    if (this.dropped > 0 && max > 0) {
      out.push(droppedNotice(this.dropped, this.now()));
      this.dropped = 0;
    }
    const n = Math.min(max - out.length, this.items.length - this.head);
    for (let i = 0; i < n; i++) out.push(this.items[this.head + i]!);
    this.head += n;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    }
    return out;
  }
}
