import { ACTIONS_SERVICE_PATH, type ActionRun, type LongAction } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { parseActionRun, pollInterval } from '../diagnostics-rules';

export const actionRunKey = (uuid: string, action: LongAction) => ['device', uuid, 'action-run', action] as const;

const url = (uuid: string, action: LongAction) => `${ACTIONS_SERVICE_PATH}/v1/${encodeURIComponent(uuid)}/${action}`;

/** A body the page cannot read is a failed query (spec 2 §8 'Failed query check'). */
function asRun(body: unknown): ActionRun {
  const run = parseActionRun(body);
  if (!run) throw new Error('The actions service answered something that is not a run');
  return run;
}

/** `GET {actions}/v1/{uuid}/{actionId}` (spec 2 §7): the last run's status, stdout, error and start. */
export async function getActionRun(uuid: string, action: LongAction): Promise<ActionRun> {
  const { body } = await sdk.request.send({ method: 'GET', baseUrl: window.location.origin, url: url(uuid, action) });
  return asRun(body);
}

/** `POST {actions}/v1/{uuid}/{actionId}` with the action's parameters (diagnose: none): starts a run. */
export async function startActionRun(uuid: string, action: LongAction): Promise<ActionRun> {
  const { body } = await sdk.request.send({ method: 'POST', baseUrl: window.location.origin, url: url(uuid, action), body: {} });
  return asRun(body);
}

/** The action's last run, polled as spec 2 §9 says (checks 15 s; diagnose 5 s while running). */
export function useActionRun(uuid: string, action: LongAction, enabled = true) {
  return useQuery({
    queryKey: actionRunKey(uuid, action),
    queryFn: () => getActionRun(uuid, action),
    enabled,
    refetchInterval: (query) => pollInterval(action, query.state.data),
    // The page shows its own error ('Failed query check'); no retry storm against a sick service.
    retry: 1,
  });
}

/** Starts a run; its answer (in progress) is the query's data at once, then polling takes over. */
export function useStartActionRun(uuid: string, action: LongAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startActionRun(uuid, action),
    onSuccess: (run) => queryClient.setQueryData(actionRunKey(uuid, action), run),
    onSettled: () => queryClient.invalidateQueries({ queryKey: actionRunKey(uuid, action) }),
  });
}
