/*
 * The one date format of the dashboard (spec 3 §9: "MMM do yyyy, h:mm a", e.g.
 * "Nov 26th 2026, 1:14 AM", in the reader's time zone) and the relative form ("a few seconds
 * ago") that recent events are shown in, with the exact time on hover. Every date the
 * dashboard renders goes through here (components/date-text.tsx for React).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

/** A Date of an ISO string, a Date or epoch milliseconds; undefined when missing or invalid. */
export function toDate(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Spec 3 §9's format, "MMM do yyyy, h:mm a" in local time; undefined when missing or invalid. */
export function formatDate(value: string | number | Date | null | undefined): string | undefined {
  const date = toDate(value);
  if (!date) return undefined;
  const hours = date.getHours();
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${MONTHS[date.getMonth()]} ${ordinal(date.getDate())} ${date.getFullYear()}, ${h12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago (or how far ahead) `value` is from `now`, in the words balena's dashboard uses
 * (moment's thresholds): "a few seconds ago", "a minute ago", "5 minutes ago", "an hour ago",
 * "3 hours ago", "a day ago", "12 days ago", "a month ago", "4 months ago", "a year ago",
 * "2 years ago"; "in 5 minutes" ahead.
 */
export function formatRelative(value: string | number | Date | null | undefined, now: number | Date = Date.now()): string | undefined {
  const date = toDate(value);
  if (!date) return undefined;
  const diff = (now instanceof Date ? now.getTime() : now) - date.getTime();
  const ms = Math.abs(diff);
  const seconds = Math.round(ms / SECOND);
  const minutes = Math.round(ms / MINUTE);
  const hours = Math.round(ms / HOUR);
  const days = Math.round(ms / DAY);
  const months = Math.round(ms / (30.4375 * DAY));
  const years = Math.round(ms / (365.25 * DAY));
  let text: string;
  if (seconds < 45) text = 'a few seconds';
  else if (seconds < 90) text = 'a minute';
  else if (minutes < 45) text = `${minutes} minutes`;
  else if (minutes < 90) text = 'an hour';
  else if (hours < 22) text = `${hours} hours`;
  else if (hours < 36) text = 'a day';
  else if (days < 26) text = `${days} days`;
  else if (days < 46) text = 'a month';
  else if (days < 320) text = `${months} months`;
  else if (months < 18) text = 'a year';
  else text = `${years} years`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}
