import { LOG_LIMITS, type DeviceLogLine } from '@flotilla/model';

/**
 * A device's log line as it is stored and fanned out: the reader's shape (`DeviceLogLine`)
 * plus the store's id, which orders the lines of a device and lets a streaming reader drop
 * the live lines its history already held.
 */
export interface StoredLogLine extends DeviceLogLine {
  id: number;
}

/** A line ready to store (what `normalizeLogLine` makes of a device's input). */
export interface LogLineInput {
  message: string;
  timestamp: number;
  isSystem: boolean;
  isStdErr: boolean;
  serviceId: number | null;
}

const INT4_MAX = 2_147_483_647;
// PostgreSQL text cannot hold U+0000; a lone UTF-16 half cannot be encoded as UTF-8.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `message` cut to LOG_LIMITS.maxMessageChars (never splitting a surrogate pair) and made storable. */
export function cutMessage(message: string): string {
  let text = message;
  if (text.length > LOG_LIMITS.maxMessageChars) {
    let end = LOG_LIMITS.maxMessageChars;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end -= 1;
    text = text.slice(0, end);
  }
  return text.replace(UNSTORABLE, '\ufffd');
}

/**
 * A device's log object (`DeviceLogInput`, dialect §4.5) checked and made storable, or
 * undefined when it is not a log line (no string message, no timestamp a date can hold —
 * beyond ±8.64e15 ms it would not fit the bigint column or a JavaScript Date): such lines
 * are skipped, never stored. The message is cut at 10,000 characters; `isSystem` and
 * `isStdErr` are true only when sent as true; a `serviceId` that is not a positive 32-bit
 * integer is dropped. Lines carrying `uuid` are a dependent device's (balena's supervisor
 * protocol) and are skipped, as balena does.
 */
/** The largest timestamp of a JavaScript Date (ms): also well inside PostgreSQL's bigint. */
const MAX_TIMESTAMP_MS = 8.64e15;

export function normalizeLogLine(value: unknown): LogLineInput | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.message !== 'string') return undefined;
  // Found by the fuzzer (issue 21): 1e20 failed the whole batch INSERT with the other devices' lines in it.
  if (typeof v.timestamp !== 'number' || !(Math.abs(v.timestamp) <= MAX_TIMESTAMP_MS)) return undefined;
  if (v.uuid !== undefined && v.uuid !== null) return undefined;
  const serviceId = typeof v.serviceId === 'number' && Number.isInteger(v.serviceId) && v.serviceId > 0 && v.serviceId <= INT4_MAX ? v.serviceId : null;
  return {
    message: cutMessage(v.message),
    timestamp: Math.trunc(v.timestamp),
    isSystem: v.isSystem === true,
    isStdErr: v.isStdErr === true,
    serviceId,
  };
}

/** The reader's shape of a stored line (`serviceId` only when the line has one). */
export function toReaderLine(line: StoredLogLine): DeviceLogLine {
  const out: DeviceLogLine = { message: line.message, timestamp: line.timestamp, createdAt: line.createdAt, isSystem: line.isSystem, isStdErr: line.isStdErr };
  if (line.serviceId !== undefined && line.serviceId !== null) out.serviceId = line.serviceId;
  return out;
}
