import { formatDate } from '../../../lib/date-format';

/** A timestamp in the dashboard's one date format (spec 3 §9), or undefined. */
export function formatTimestamp(iso: string | null | undefined): string | undefined {
  return formatDate(iso);
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Megabytes (the unit devices report memory and storage in, dialect §4.3) as a short size. */
export function formatMegabytes(mb: number): string {
  let value = mb * 1024 * 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${UNITS[unit]}`;
}

/** The IP lists of the dialect are space-separated. */
export function addressList(value: string | null | undefined): string[] {
  return (value ?? '').split(/\s+/).filter((x) => x !== '');
}

const DURATION_UNITS: [unit: 'day' | 'hour' | 'minute' | 'second', ms: number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

/** How long ago `iso` was, in its largest whole unit ("3 minutes"), or undefined. */
export function formatElapsed(iso: string | null | undefined, now: number = Date.now()): string | undefined {
  if (!iso) return undefined;
  const elapsed = Math.max(0, now - Date.parse(iso));
  if (Number.isNaN(elapsed)) return undefined;
  const [unit, ms] = DURATION_UNITS.find(([, size]) => elapsed >= size) ?? DURATION_UNITS[3]!;
  return new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long' }).format(Math.floor(elapsed / ms));
}
