/** Timestamps on the release pages: medium date with short time in the UI language. */
export function formatTimestamp(value: string | null | undefined, language: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}
