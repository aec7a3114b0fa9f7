import type { DeviceLogLine } from '@flotilla/model';

// Colour, cursor and other CSI escapes (ESC [ … final byte) and OSC sequences (ESC ] … BEL/ST)
// that containers write for terminals; the panel shows plain text (docs/decisions.md).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** The message without ANSI escape sequences. */
export function stripAnsi(message: string): string {
  return message.includes('\u001b') ? message.replace(ANSI, '') : message;
}

const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/**
 * A line's timestamp (spec 2 §9: ISO with offset): `2026-11-26T14:35:19.123+01:00` in the
 * reader's time zone, or `2026-11-26T13:35:19.123Z` in UTC mode. `offsetMinutes` is the zone's
 * offset east of UTC at that instant (tests pass it; the panel reads it from the Date).
 */
export function formatLogTimestamp(ms: number, utc: boolean, offsetMinutes: number = -new Date(ms).getTimezoneOffset()): string {
  if (!Number.isFinite(ms)) return '';
  if (utc) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const zone = `${sign}${pad(offsetMinutes / 60)}:${pad(offsetMinutes % 60)}`;
  return `${local.toISOString().slice(0, -1)}${zone}`;
}

/** The name a line is shown under: the service's name, 'System' for system lines. */
export function lineSource(line: Pick<DeviceLogLine, 'isSystem' | 'serviceId'>, serviceNames: ReadonlyMap<number, string>, systemLabel: string): string {
  if (line.isSystem || line.serviceId === undefined) return systemLabel;
  return serviceNames.get(line.serviceId) ?? `service ${line.serviceId}`;
}

/**
 * The downloaded log (spec 2 §2 "downloadable"): one line per entry, oldest first:
 * `{timestamp} [{service or System}] {message}`, stderr lines marked `(stderr)`, the timestamp
 * in the panel's current zone mode, ANSI escapes removed, a message's own newlines kept inside
 * its entry as `\n` is what separates entries (they are written as a space-indented
 * continuation so every entry still starts with its timestamp).
 */
export function logsAsText(
  lines: readonly DeviceLogLine[],
  serviceNames: ReadonlyMap<number, string>,
  { utc, systemLabel = 'System' }: { utc: boolean; systemLabel?: string },
): string {
  return lines
    .map((line) => {
      const message = stripAnsi(line.message).replace(/\r?\n$/, '').replace(/\r?\n/g, '\n    ');
      const stderr = line.isStdErr ? ' (stderr)' : '';
      return `${formatLogTimestamp(line.timestamp, utc)} [${lineSource(line, serviceNames, systemLabel)}]${stderr} ${message}`;
    })
    .join('\n')
    .concat(lines.length > 0 ? '\n' : '');
}

/** The download's file name: `{uuid}_logs_{timestamp}.txt`, the diagnostics file's pattern (spec 2 §9). */
export function logsFileName(uuid: string, at: Date): string {
  return `${uuid}_logs_${at.toISOString().replace(/[:.]/g, '-')}.txt`;
}
