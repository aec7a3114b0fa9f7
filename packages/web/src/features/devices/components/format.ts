/** A timestamp in the reader's locale, or undefined. */
export function formatTimestamp(iso: string | null | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(+date) ? undefined : date.toLocaleString();
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
