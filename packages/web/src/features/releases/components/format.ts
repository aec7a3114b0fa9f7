import { formatDate } from '../../../lib/date-format';

/** Timestamps on the release pages, in the dashboard's one date format (spec 3 §9). */
export function formatTimestamp(value: string | null | undefined, _language?: string): string | undefined {
  if (!value) return undefined;
  return formatDate(value) ?? value;
}
