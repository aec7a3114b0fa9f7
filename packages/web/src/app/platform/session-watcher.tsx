import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { startSessionWatch } from './session-watch-runtime';

/**
 * Runs the session check (session-watch-runtime.ts) while the dashboard is open. In the shell
 * rather than loaded after start-up: as a chunk of its own it cost the first pages more (the
 * modules it shares with the shell were split out) than it weighs.
 */
export function SessionWatcher() {
  const queryClient = useQueryClient();
  useEffect(() => startSessionWatch(queryClient), [queryClient]);
  return null;
}
