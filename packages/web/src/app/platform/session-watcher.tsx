import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Starts the session check (session-watch-runtime.ts) once the dashboard is up; its module
 * loads after start-up so the first page does not carry it.
 */
export function SessionWatcher() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    import('./session-watch-runtime')
      .then((m) => {
        if (!cancelled) stop = m.startSessionWatch(queryClient);
      })
      .catch(() => {}); // unreachable at start: the next page load starts it
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient]);
  return null;
}
