import { LOG_PANEL, type DeviceLogLine } from '@flotilla/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import { openLogStream } from './api/device-logs';
import { appendLogs, EMPTY_LOG_BUFFER, isLogLine, type LogBuffer } from './log-buffer';
import { historyCount, reconnectDelayMs } from './reconnect-policy';

/** Where the live stream stands: opening, streaming, or waiting to / trying to reconnect. */
export type LogStreamStatus = 'connecting' | 'live' | 'reconnecting';

/** How often received lines are handed to React: a burst of lines renders once. */
const FLUSH_MS = 50;

/**
 * The device's live log lines (spec 2 §4 "Log stream", §7 logs): the log stream with a
 * history of 100 lines, then after an error or an end a new stream with no history, 1 s later
 * (10 s after a 429/503 or an initial failure). Lines go into the 5000-line buffer in batches
 * of `FLUSH_MS`.
 */
export function useLogStream(uuid: string, enabled: boolean) {
  const [buffer, setBuffer] = useState<LogBuffer>(EMPTY_LOG_BUFFER);
  const [status, setStatus] = useState<LogStreamStatus>('connecting');
  const pending = useRef<DeviceLogLine[]>([]);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let subscription: { unsubscribe(): void } | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;

    const flush = () => {
      flushTimer = undefined;
      const lines = pending.current;
      pending.current = [];
      if (lines.length > 0 && !stopped) setBuffer((b) => appendLogs(b, lines));
    };

    const connect = () => {
      const reconnecting = attempts > 0;
      const attempt = { first: !reconnecting, opened: false };
      attempts += 1;
      setStatus(reconnecting ? 'reconnecting' : 'connecting');
      subscription = openLogStream(uuid, historyCount(reconnecting), {
        onOpen: () => {
          if (stopped) return;
          attempt.opened = true;
          setStatus('live');
        },
        onLine: (line) => {
          if (stopped || !isLogLine(line)) return;
          pending.current.push(line);
          // A background tab may not flush for a while: keep no more than the buffer holds.
          if (pending.current.length > LOG_PANEL.bufferLines * 2) pending.current.splice(0, pending.current.length - LOG_PANEL.bufferLines);
          flushTimer ??= setTimeout(flush, FLUSH_MS);
        },
        onEnd: (err) => {
          if (stopped) return;
          subscription = undefined;
          setStatus('reconnecting');
          retry = setTimeout(connect, reconnectDelayMs(err, attempt));
        },
      });
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(flushTimer);
      subscription?.unsubscribe();
      pending.current = [];
    };
  }, [uuid, enabled]);

  /** Empties the panel (after the stored lines were deleted). */
  const clear = useCallback(() => {
    pending.current = [];
    setBuffer((b) => ({ lines: [], nextSeq: b.nextSeq }));
  }, []);

  return { buffer, status, clear };
}

/** True once `ms` passed since `since` changed (the 'No logs yet' delay). */
export function useElapsed(ms: number, since: unknown): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    setElapsed(false);
    const timer = setTimeout(() => setElapsed(true), ms);
    return () => clearTimeout(timer);
  }, [ms, since]);
  return elapsed;
}

/** A value that follows `value` once it stopped changing for `ms` (the text filter's debounce). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** A boolean kept in localStorage under `key` ('true'/'false'), e.g. the UTC toggle. */
export function useStoredFlag(key: string): [boolean, (on: boolean) => void] {
  const [value, setValue] = useState(() => readFlag(key));
  const set = useCallback(
    (on: boolean) => {
      setValue(on);
      try {
        window.localStorage.setItem(key, on ? 'true' : 'false');
      } catch {
        // Storage full or blocked: the toggle still works for this page.
      }
    },
    [key],
  );
  return [value, set];
}

function readFlag(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}
