import type { StatusFeedConfig } from '../../infra/app/context.js';
import { fetchOutsideText } from '../../infra/http/outside-fetch.js';

/**
 * The status page's summary as the dashboard reads it (GET /config/status, issue 19): a
 * Statuspage-compatible feed (`/api/v2/summary.json`: `status.indicator`,
 * `status.description`, `incidents[]`) reduced to what the header and the incident banner
 * show. Anything else in the feed is dropped; every string is bounded.
 */
export const STATUS_INDICATORS = ['none', 'minor', 'major', 'critical', 'maintenance', 'unknown'] as const;
export type StatusIndicator = (typeof STATUS_INDICATORS)[number];

export interface StatusIncident {
  name: string;
  status: string;
  impact: string;
}

export interface StatusSummary {
  indicator: StatusIndicator;
  description: string;
  incidents: StatusIncident[];
}

export const STATUS_FEED_TIMEOUT_MS = 5_000;
export const STATUS_FEED_CACHE_MS = 30_000;
export const STATUS_FEED_MAX_BYTES = 256 * 1024;
const MAX_INCIDENTS = 10;
const MAX_TEXT = 200;

/** What the dashboard is told when the feed cannot be read (unreachable, slow, too large, not a summary). */
export const UNKNOWN_STATUS: StatusSummary = { indicator: 'unknown', description: '', incidents: [] };

const text = (value: unknown, max = MAX_TEXT): string => (typeof value === 'string' ? value.trim().slice(0, max) : '');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parsed feed body as the dashboard's summary; a body without a status is unknown. */
export function normaliseStatusSummary(body: unknown): StatusSummary {
  if (!isObject(body) || !isObject(body.status)) return UNKNOWN_STATUS;
  const reported = body.status.indicator;
  const indicator = STATUS_INDICATORS.find((i) => i !== 'unknown' && i === reported) ?? 'unknown';
  const incidents = (Array.isArray(body.incidents) ? body.incidents : [])
    .filter(isObject)
    // The summary lists unresolved incidents; a feed that keeps resolved ones shows them no more.
    .filter((i) => i.status !== 'resolved' && i.status !== 'postmortem' && text(i.name) !== '')
    .slice(0, MAX_INCIDENTS)
    .map((i) => ({ name: text(i.name), status: text(i.status, 40), impact: text(i.impact, 40) }));
  return { indicator, description: text(body.status.description), incidents };
}

/** Reads the feed once: any failure (no answer in time, refused, non-2xx, too large, not JSON) is UNKNOWN_STATUS. */
export async function readStatusFeed(feed: StatusFeedConfig): Promise<StatusSummary> {
  try {
    const body = await fetchOutsideText(feed.url, {
      accept: 'application/json',
      timeoutMs: feed.timeoutMs ?? STATUS_FEED_TIMEOUT_MS,
      maxBytes: feed.maxBytes ?? STATUS_FEED_MAX_BYTES,
      failed: 'Failed retrieving the status page',
      notFound: 'The status page feed was not found',
    });
    return body === null ? UNKNOWN_STATUS : normaliseStatusSummary(JSON.parse(body));
  } catch {
    return UNKNOWN_STATUS;
  }
}

/**
 * One app's view of the feed: an answer is reused for `cacheMs` (failures too, so an
 * unreachable feed is asked at most once per period), and callers arriving while it is read
 * share that one read.
 */
export function statusFeedReader(feed: StatusFeedConfig, clock: () => number, read = readStatusFeed): () => Promise<StatusSummary> {
  let cached: { at: number; summary: Promise<StatusSummary> } | undefined;
  return () => {
    const now = clock();
    if (!cached || now - cached.at >= (feed.cacheMs ?? STATUS_FEED_CACHE_MS)) cached = { at: now, summary: read(feed) };
    return cached.summary;
  };
}
