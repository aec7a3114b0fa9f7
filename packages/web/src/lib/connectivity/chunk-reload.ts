import { CHUNK_RELOAD_DELAY_MS, CHUNK_RELOAD_WINDOW_MS } from './constants';

/*
 * A page or dialog chunk that failed to load is loaded again by reloading the page, once.
 *
 * A failed `import()` stays failed for the document's life: the browser keeps the failure in
 * its module map, and calling the same import again answers it without a request (Chromium 156;
 * the HTML change that stops caching failures, whatwg/html#10327, is not implemented there).
 * A transient failure (a dropped connection, Chromium's ERR_NETWORK_CHANGED when the host's
 * interfaces change, a proxy's hiccup) therefore needs a new document. The route error boundary
 * reloads on its own once the server answers /ping; a second failure within the window shows
 * the offer to reload instead, so a chunk that is really gone (a new build replaced it, the
 * server is down) cannot make the page reload in a loop.
 */

const STORAGE_KEY = 'flotilla.chunkReloadAt';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** When the page last reloaded itself for a failed chunk (ms since the epoch), if it did. */
function lastReload(store: Store): number | undefined {
  const last = Number(store.getItem(STORAGE_KEY) ?? '');
  return Number.isFinite(last) && last > 0 ? last : undefined;
}

/**
 * Whether the page may reload itself for a failed chunk at `now`: none of its own reloads
 * within the window. Without a usable sessionStorage: no (there would be no loop guard).
 */
export function mayReloadForChunk(store: Store | undefined, now = Date.now(), windowMs = CHUNK_RELOAD_WINDOW_MS): boolean {
  try {
    if (!store) return false;
    const last = lastReload(store);
    return last === undefined || now < last || now - last >= windowMs;
  } catch {
    return false;
  }
}

/**
 * After a chunk failure: unless the page reloaded itself for one within the window, waits
 * (the network settles), asks `reachable` (the /ping probe) and, when the server answers,
 * records the reload and reloads. Resolves false when it will not reload (the caller offers
 * the reload); `cancelled` stops it (the boundary went away).
 */
export async function reloadForFailedChunk({
  store,
  reachable,
  reload,
  cancelled = () => false,
  delayMs = CHUNK_RELOAD_DELAY_MS,
  now = () => Date.now(),
}: {
  store: Store | undefined;
  reachable: () => Promise<boolean>;
  reload: () => void;
  cancelled?: () => boolean;
  delayMs?: number;
  now?: () => number;
}): Promise<boolean> {
  if (!mayReloadForChunk(store, now())) return false;
  await new Promise((done) => setTimeout(done, delayMs));
  if (cancelled() || !(await reachable()) || cancelled()) return false;
  try {
    store!.setItem(STORAGE_KEY, String(now()));
  } catch {
    return false;
  }
  reload();
  return true;
}
