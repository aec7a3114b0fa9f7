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

/**
 * The handling of each failed chunk in one document, by its error message (which names the
 * chunk's URL). The route error boundary can mount again for the same failure with a new error
 * object (the router renders the route again and the lazy import rejects anew): it then joins
 * the handling under way instead of logging again and starting the reload's wait over. A
 * failure the reload heals is logged as a warning; the one that ends at the offer as an error.
 * While no boundary shows a chunk failure, a pending reload is cancelled (the user went
 * elsewhere), and coming back is a new try.
 */
export function chunkFailureHandler(deps: {
  store: () => Store | undefined;
  reachable: () => Promise<boolean>;
  reload: () => void;
  log: Pick<Console, 'warn' | 'error'>;
  delayMs?: number;
}) {
  const handling = new Map<string, Promise<boolean>>();
  let shown = 0;
  return {
    /** A boundary shows a chunk failure; call the result when it goes. */
    shown(): () => void {
      shown++;
      return () => {
        shown--;
      };
    },
    /** Resolves whether the page reloads (false: offer the reload). */
    handle(error: unknown): Promise<boolean> {
      const key = error instanceof Error ? error.message : String(error);
      const under = handling.get(key);
      if (under) return under;
      const store = deps.store();
      let result: Promise<boolean>;
      if (!mayReloadForChunk(store)) {
        deps.log.error(error);
        result = Promise.resolve(false);
      } else {
        deps.log.warn('Part of the dashboard failed to load; the page reloads once to load it again.', error);
        result = reloadForFailedChunk({ store, reachable: deps.reachable, reload: deps.reload, cancelled: () => shown === 0, delayMs: deps.delayMs }).then((reloading) => {
          if (!reloading && shown === 0) handling.delete(key);
          else if (!reloading) deps.log.error(error);
          return reloading;
        });
      }
      handling.set(key, result);
      return result;
    },
  };
}
