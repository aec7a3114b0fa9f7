import { useEffect, useState } from 'react';
import { formatDate, formatRelative, toDate } from '../lib/date-format';

/** How often relative times are redrawn (the coarsest wording, "a few seconds", spans 45 s). */
const TICK_MS = 10_000;

/** The current time, redrawn every `intervalMs` while `live`. */
export function useNow(live = true, intervalMs = TICK_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [live, intervalMs]);
  return now;
}

/** A date in the dashboard's one format (spec 3 §9), machine-readable in `<time>`; `fallback` when missing. */
export function DateText({ value, fallback = '' }: { value: string | number | Date | null | undefined; fallback?: string }) {
  const date = toDate(value);
  if (!date) return <>{typeof value === 'string' && value !== '' ? value : fallback}</>;
  return <time dateTime={date.toISOString()}>{formatDate(date)}</time>;
}

interface RelativeTimeProps {
  value: string | number | Date | null | undefined;
  /** Shown when there is no date. */
  fallback?: string;
  /** The moment is "now" (a device seen at this very moment): redrawn as time passes. */
  isNow?: boolean;
  'data-testid'?: string;
}

/**
 * A moment as relative time ("a few seconds ago"), the exact date (spec 3 §9's format) on
 * hover; it keeps itself current. With `isNow` the moment is the present (an online device
 * is being seen now), so it reads "a few seconds ago" and its exact time moves on.
 */
export function RelativeTime({ value, fallback = '', isNow = false, 'data-testid': testId }: RelativeTimeProps) {
  const now = useNow();
  const date = isNow ? new Date(now) : toDate(value);
  if (!date) return <span data-testid={testId}>{fallback}</span>;
  // The browser's own tooltip: MUI's Tooltip would add its Popper (~12 kB gzip) to the
  // device table's first load, which has no budget left (ARCHITECTURE.md, 350 kB).
  return (
    <time dateTime={date.toISOString()} title={formatDate(date)} data-testid={testId}>
      {formatRelative(date, now)}
    </time>
  );
}
