import { useSyncExternalStore } from 'react';

/** The status summary of GET /config/status as the dashboard reads it. */
export interface StatusSummary {
  indicator: 'none' | 'minor' | 'major' | 'critical' | 'maintenance' | 'unknown';
  description: string;
  incidents: { name: string; status?: string; impact?: string }[];
}

interface NewsState {
  /** The changelog dialog is open (by itself, or from the help menu's "What's new"). */
  changelogOpen: boolean;
  /** The latest status summary; null until the first check or when no feed is configured. */
  status: StatusSummary | null;
}

/**
 * The little state the header's pieces (help menu, status indicator) and the banners share,
 * each loaded as its own chunk: one store for the page, outside React's tree.
 */
let state: NewsState = { changelogOpen: false, status: null };
const listeners = new Set<() => void>();

export function setNews(change: Partial<NewsState>): void {
  state = { ...state, ...change };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useNews<T>(select: (s: NewsState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}

export const openChangelog = () => setNews({ changelogOpen: true });

/** An incident worth a banner (spec 3 §4): the feed reports minor, major or critical trouble. */
export const hasIncident = (status: StatusSummary | null): boolean =>
  status !== null && (status.indicator === 'minor' || status.indicator === 'major' || status.indicator === 'critical');
