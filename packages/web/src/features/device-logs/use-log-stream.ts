import { LOG_PANEL, type DeviceLogLine } from '@flotilla/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import { sdk } from '../../lib/sdk';
import { appendLogs, EMPTY_LOG_BUFFER, isLogLine, type LogBuffer } from './log-buffer';
import { historyCount, reconnectDelayMs } from './reconnect-policy';

/** Where the live stream stands: opening, streaming, or waiting to / trying to reconnect. */
export type LogStreamStatus = 'connecting' | 'live' | 'reconnecting';

/** How often received lines are handed to React: a burst of lines renders once. */
const FLUSH_MS = 50;

interface Subscription {
  on(event: 'line', listener: (line: unknown) => void): unknown;
  on(event: 'error', listener: (err: unknown) => void): unknown;
  unsubscribe(): void;
}

/**
 * The device's live log lines (spec 2 §4 "Log stream", §7 logs): `sdk.logs.subscribe` with a
 * history of 100 lines, then after an error a new subscription with no history, 1 s later
 * (10 s after a 429/503 or an initial failure). balena-sdk says nothing when a stream opens,
 * so the stream counts as live once a line arrived, or once it ran `reconnectMs` without an
 * error. Lines go into the 5000-line buffer in batches of `FLUSH_MS`.
 */
export function useLogStream(uuid: string, enabled: boolean) {
  const [buffer, setBuffer] = useState<LogBuffer>(EMPTY_LOG_BUFFER);
  const [status, setStatus] = useState<LogStreamStatus>('connecting');
  const pending = useRef<DeviceLogLine[]>([]);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let subscription: Subscription | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let liveTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let attempts = 0;

    const flush = () => {
      flushTimer = undefined;
      const lines = pending.current;
      pending.current = [];
      if (lines.length > 0 && !stopped) setBuffer((b) => appendLogs(b, lines));
    };

    const connect = async () => {
      const reconnecting = attempts > 0;
      const attempt = { first: !reconnecting, receivedLines: false };
      attempts += 1;
      setStatus(reconnecting ? 'reconnecting' : 'connecting');
      let failed = false;
      const fail = (err: unknown) => {
        if (stopped || failed) return;
        failed = true;
        clearTimeout(liveTimer);
        subscription?.unsubscribe();
        subscription = undefined;
        setStatus('reconnecting');
        retry = setTimeout(() => void connect(), reconnectDelayMs(err, attempt));
      };
      try {
        const sub = (await sdk.logs.subscribe(uuid, { count: historyCount(reconnecting) })) as unknown as Subscription;
        if (stopped) {
          sub.unsubscribe();
          return;
        }
        subscription = sub;
        sub.on('line', (line) => {
          if (stopped || failed || !isLogLine(line)) return;
          if (!attempt.receivedLines) {
            attempt.receivedLines = true;
            clearTimeout(liveTimer);
            setStatus('live');
          }
          pending.current.push(line);
          // A background tab may not flush for a while: keep no more than the buffer holds.
          if (pending.current.length > LOG_PANEL.bufferLines * 2) pending.current.splice(0, pending.current.length - LOG_PANEL.bufferLines);
          flushTimer ??= setTimeout(flush, FLUSH_MS);
        });
        sub.on('error', fail);
        liveTimer = setTimeout(() => {
          if (!stopped && !failed) setStatus('live');
        }, LOG_PANEL.reconnectMs);
      } catch (err) {
        fail(err);
      }
    };

    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(liveTimer);
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
