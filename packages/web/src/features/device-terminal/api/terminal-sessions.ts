import { useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

/** One row of the terminal audit trail (`terminal_session`, written by the server only). */
export interface TerminalSessionRecord {
  id: number;
  username: string;
  target: string;
  started_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

/** The newest sessions the dialog lists. */
export const SESSION_HISTORY_PAGE = 50;

// `terminal_session` is not in balena-sdk's model (nor yet in ours): the SDK's pine is called
// with its types set aside, as lib/pine.ts does for the rest of our model.
const pine = sdk.pine as unknown as { get: (params: { resource: string; options?: unknown }) => Promise<unknown> };

/**
 * The device's terminal sessions, newest first (GET /v7/terminal_session). The server lets
 * only the administrators of the device's fleet or organization read them; for anyone else
 * the list comes back empty.
 */
export async function getTerminalSessions(uuid: string): Promise<TerminalSessionRecord[]> {
  const devices = (await pine.get({ resource: 'device', options: { $select: 'id', $filter: { uuid } } })) as { id: number }[];
  const device = devices[0];
  if (!device) return [];
  return (await pine.get({
    resource: 'terminal_session',
    options: {
      $select: ['id', 'username', 'target', 'started_at', 'ended_at', 'end_reason'],
      $filter: { device: device.id },
      $orderby: { started_at: 'desc' },
      $top: SESSION_HISTORY_PAGE,
    },
  })) as TerminalSessionRecord[];
}

export function useTerminalSessions(uuid: string, enabled: boolean) {
  return useQuery({ queryKey: ['device', uuid, 'terminal-sessions'], queryFn: () => getTerminalSessions(uuid), enabled, staleTime: 0 });
}
