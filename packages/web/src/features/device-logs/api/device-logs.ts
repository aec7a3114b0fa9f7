import type { DeviceLogLine } from '@flotilla/model';
import { useQuery } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';

/** A service whose lines the panel can name and filter. */
export interface LogService {
  id: number;
  name: string;
}

/**
 * The services a device's lines can come from: its fleet's services (a device runs only its
 * fleet's releases), by name. Lines of a service not listed (a device moved from another
 * fleet) still show, under `service {id}`.
 */
export async function getLogServices(fleetId: number): Promise<LogService[]> {
  const rows = await pineGet('service', { $select: ['id', 'service_name'], $filter: { application: fleetId }, $orderby: { service_name: 'asc' } });
  return rows.map((s) => ({ id: s.id, name: s.service_name }));
}

export function useLogServices(fleetId: number) {
  return useQuery({ queryKey: ['fleet', fleetId, 'log-services'], queryFn: () => getLogServices(fleetId), staleTime: 60_000 });
}

/** Spec 2 §7: the log history for a download (`logs.history`, every stored line). */
export async function getLogHistory(uuid: string): Promise<DeviceLogLine[]> {
  return (await sdk.logs.history(uuid, { count: 'all' })) as unknown as DeviceLogLine[];
}

/** `DELETE /device/v2/{uuid}/logs` (needs `resin.device_log.delete`; the server decides). */
export async function clearDeviceLogs(uuid: string): Promise<void> {
  await sdk.request.send({ method: 'DELETE', baseUrl: window.location.origin, url: `/device/v2/${encodeURIComponent(uuid)}/logs` });
}

/** What a log stream tells its reader. */
export interface LogStreamHandlers {
  /** The server answered 2xx: lines follow (history first). */
  onOpen(): void;
  onLine(line: unknown): void;
  /** The stream failed or ended (the server ends streams when it shuts down); called once. */
  onEnd(err: unknown): void;
}

/** A partial line longer than this ends the stream (a reader bound; lines are cut at 10k chars). */
const MAX_PENDING_CHARS = 1_000_000;

/**
 * `GET /device/v2/{uuid}/logs?count=N&stream=1` — the request balena-sdk's `logs.subscribe`
 * makes — through the SDK's own `request.stream`, read as NDJSON (blank keep-alive lines
 * skipped, a malformed line skipped). Read here rather than through `logs.subscribe` because
 * that emitter tells neither when the stream opened nor when it ended cleanly.
 */
export function openLogStream(uuid: string, count: number, handlers: LogStreamHandlers): { unsubscribe(): void } {
  const controller = new AbortController();
  let done = false;
  const finish = (err: unknown) => {
    if (done) return;
    done = true;
    handlers.onEnd(err);
  };
  void sdk.request
    .stream({ method: 'GET', baseUrl: window.location.origin, url: `/device/v2/${encodeURIComponent(uuid)}/logs`, qs: { count, stream: 1 }, signal: controller.signal })
    .then(
      (stream) => {
        if (done) return;
        handlers.onOpen();
        const decoder = new TextDecoder();
        let rest = '';
        stream.on('data', (chunk: Uint8Array) => {
          if (done) return;
          rest += decoder.decode(chunk, { stream: true });
          const parts = rest.split('\n');
          rest = parts.pop() ?? '';
          for (const part of parts) {
            if (done) return;
            if (part.trim() === '') continue;
            let line: unknown;
            try {
              line = JSON.parse(part);
            } catch {
              continue;
            }
            handlers.onLine(line);
          }
          if (rest.length > MAX_PENDING_CHARS) finish(new Error('log line too long'));
        });
        stream.on('end', () => finish(new Error('The log stream ended')));
        stream.on('error', (err: unknown) => finish(err));
      },
      (err: unknown) => finish(err),
    );
  return {
    unsubscribe() {
      done = true;
      controller.abort();
    },
  };
}
