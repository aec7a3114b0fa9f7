/**
 * The wire contracts of live device operations (spec 2 §3 log line and diagnostic results,
 * §4 terminal session / log stream / diagnostics run / health-check states, §7 logs, terminal
 * and actions service, §9 constants). The server, the agent and the dashboard all read this
 * file, so the three agree on names and bounds. Behaviour lives with each feature.
 */

// ---------------------------------------------------------------------------------------------
// Logs (dialect §4.5, balena-sdk `logs.history` / `logs.subscribe`)
// ---------------------------------------------------------------------------------------------

/** A line as a device sends it (`/device/v2/{uuid}/log-stream` NDJSON, or `/logs` batches). */
export interface DeviceLogInput {
  message: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  isSystem?: boolean;
  isStdErr?: boolean;
  serviceId?: number;
}

/** A line as readers get it (`GET /device/v2/{uuid}/logs`, balena-sdk `LogMessage`). */
export interface DeviceLogLine {
  message: string;
  timestamp: number;
  /** When the server stored it (ms). */
  createdAt: number;
  isSystem: boolean;
  isStdErr: boolean;
  serviceId?: number;
}

export const LOG_LIMITS = {
  /** Dialect §4.5: messages are cut at 10k characters. */
  maxMessageChars: 10_000,
  /** Dialect §4.5: a batch upload carries at most 10 lines. */
  maxBatchLines: 10,
  /** Balena's limit: 15 batches (requests or stream chunks) per 10 s per device; beyond it 429. */
  rateLimitBatches: 15,
  rateLimitWindowMs: 10_000,
  /** Retention defaults (balena's): the last 1000 lines and 30 days per device. */
  retainLines: 1000,
  retainDays: 30,
  /** Dialect §4.5: the reader's default `count`. */
  defaultReadCount: 1000,
  /** Dialect §4.5: a `\n` keep-alive on `?stream=1` every 58 s. */
  keepAliveMs: 58_000,
} as const;

/** Spec 2 §9: the dashboard's log panel. */
export const LOG_PANEL = {
  bufferLines: 5000,
  noLogsAfterMs: 3_000,
  filterDebounceMs: 500,
  initialHistory: 100,
  reconnectMs: 1_000,
  /** After a 429 or 503, and after an initial failure. */
  reconnectSlowMs: 10_000,
  maxHeightPx: 900,
  /** localStorage keys (spec 2 §9). */
  utcModeKey: 'device_logs_utc_mode',
  hideTimestampsKey: 'device_logs_hide_timestamps',
} as const;

// ---------------------------------------------------------------------------------------------
// Web terminal: browser ↔ server WebSocket (spec 2 §4 terminal session, §7 terminal)
// ---------------------------------------------------------------------------------------------

/** Where the browser opens the terminal WebSocket (same origin as the dashboard). */
export const TERMINAL_PATH = '/terminal/v1';

/**
 * What a session opens: the device's host OS (`host`, needs `resin.device.ssh-host` and an
 * agent started with `--allow-host-shell`) or a service's container (`service:<name>`, needs
 * `resin.device.ssh`). A prefix keeps a service named "host" unambiguous.
 */
export type TerminalTarget = 'host' | `service:${string}`;

export function terminalTarget(service: string | null): TerminalTarget {
  return service === null ? 'host' : `service:${service}`;
}

/** The service a target names, or null for the host. Undefined when the string is not a target. */
export function parseTerminalTarget(value: unknown): { service: string | null } | undefined {
  if (value === 'host') return { service: null };
  if (typeof value === 'string' && value.startsWith('service:') && value.length > 'service:'.length && value.length <= 200) {
    return { service: value.slice('service:'.length) };
  }
  return undefined;
}

/**
 * Every frame is one JSON text message `{"event": <name>, ...}`.
 *
 * Browser → server: first `authentication` (within 10 s of the upgrade, else the server closes),
 * then any number of `data` (keystrokes, UTF-8 text) and `resize`.
 *
 * Server → browser, in order: `authenticated` (or `unauthorized` + close), `ssh connecting`
 * (the server asks the device over its cloud link), `ssh spawning` (the device is starting the
 * TTY), `ssh connect` (the TTY is open) and `ready` (keystrokes are relayed from now on); then
 * `data` (TTY output, UTF-8 text) until `ssh disconnect` (the TTY or the link ended; `reason`
 * says why) and close. `error` answers a frame the server refused (bad size, bad JSON, data
 * before ready) without ending the session.
 */
export type TerminalClientFrame =
  | { event: 'authentication'; token: string; uuid: string; target: TerminalTarget; cols?: number; rows?: number }
  | { event: 'data'; data: string }
  | { event: 'resize'; cols: number; rows: number };

export type TerminalServerFrame =
  | { event: 'authenticated' }
  | { event: 'unauthorized'; message: string }
  | { event: 'ssh connecting' }
  | { event: 'ssh spawning' }
  | { event: 'ssh connect' }
  | { event: 'ready' }
  | { event: 'data'; data: string }
  | { event: 'ssh disconnect'; reason: string }
  | { event: 'error'; message: string };

export const TERMINAL_LIMITS = {
  /** A terminal is 1..1000 columns and 1..1000 rows; anything else is refused. */
  maxCols: 1000,
  maxRows: 1000,
  /** One browser frame at most (a paste); larger frames close the socket with 1009. */
  maxFrameBytes: 64 * 1024,
  authTimeoutMs: 10_000,
} as const;

/** Spec 2 §4 / §9: the dashboard's reconnection. */
export const TERMINAL_RECONNECT = { attempts: 5, delayMs: 2_000 } as const;

export function isValidTerminalSize(cols: unknown, rows: unknown): boolean {
  return (
    Number.isInteger(cols) &&
    Number.isInteger(rows) &&
    (cols as number) >= 1 &&
    (rows as number) >= 1 &&
    (cols as number) <= TERMINAL_LIMITS.maxCols &&
    (rows as number) <= TERMINAL_LIMITS.maxRows
  );
}

// ---------------------------------------------------------------------------------------------
// Actions service (spec 2 §7: `GET`/`POST /v1/{uuid}/{actionId}`), mounted under ACTIONS_SERVICE_PATH
// ---------------------------------------------------------------------------------------------

/** `GET|POST {ACTIONS_SERVICE_PATH}/v1/{uuid}/{actionId}`. */
export const ACTIONS_SERVICE_PATH = '/actions';

/** The long-running actions the service runs on a device. */
export const LONG_ACTIONS = ['checks', 'diagnose'] as const;
export type LongAction = (typeof LONG_ACTIONS)[number];

/** Spec 2 §4 health checks state values; a diagnostics run uses in_progress, done and error. */
export const ACTION_RUN_STATES = ['configuring', 'done', 'error', 'idle', 'in_progress'] as const;
export type ActionRunState = (typeof ACTION_RUN_STATES)[number];

/** One health check (spec 2 §3). `status` is a sentence a user can act on. */
export interface HealthCheck {
  name: string;
  success: boolean;
  status: string;
}

/** What `checks` leaves in `stdout` (spec 2 §3 health check result). */
export interface HealthCheckOutput {
  checks: HealthCheck[];
  diagnose_version: string;
}

/**
 * A run's record (spec 2 §3 diagnostic result / health check result): `GET` answers it
 * (`status: 'idle'` and nulls when never run); `POST` starts a run and answers it in
 * `in_progress`. `stdout` is text for `diagnose` and a HealthCheckOutput for `checks`.
 */
export interface ActionRun<Out = unknown> {
  status: ActionRunState;
  stdout: Out | null;
  /** Diagnose's stderr, or why the run failed. */
  error: string | null;
  /** ISO time the last run started. */
  lastRun: string | null;
}

/**
 * Bounds of a run (issue 15 diagnostics slice): the POST body's params, diagnose's stdout and
 * stderr (cut with a note past them, by the agent before it sends and by the server before it
 * stores), the checks a device may report, and how long the server waits for the device.
 */
export const ACTION_RUN_LIMITS = {
  maxParamsBytes: 4096,
  maxStdoutChars: 256_000,
  maxErrorChars: 32_000,
  maxChecks: 50,
  maxCheckNameChars: 100,
  maxCheckStatusChars: 1000,
  /** The device answers within this (ms); past it the run ends in error. */
  timeoutMs: { checks: 60_000, diagnose: 120_000 },
} as const;

/** The cloud-link action (model device/actions.ts) that runs each long action on the device. */
export const LONG_ACTION_SUPERVISOR_ACTION = { checks: 'health-checks', diagnose: 'diagnose' } as const;

/** Spec 2 §9 polling. */
export const ACTION_POLL_MS = { checks: 15_000, diagnose: 5_000 } as const;

/** Spec 2 §5 / §9: health checks need OS 2.11.0 or newer (a warning below). */
export const HEALTH_CHECKS_MIN_OS = '2.11.0';

/** Spec 2 §7 / §9: the supervisor target state version the diagnostics tab reads. */
export function targetStateVersionFor(supervisorVersion: string | null): 2 | 3 {
  const major = Number.parseInt((supervisorVersion ?? '').replace(/^v/, ''), 10);
  return Number.isFinite(major) && major >= 13 ? 3 : 2;
}

/** Spec 2 §9: `{uuid}_diagnostics_{timestamp}.txt`. */
export function diagnosticsFileName(uuid: string, at: Date): string {
  return `${uuid}_diagnostics_${at.toISOString().replace(/[:.]/g, '-')}.txt`;
}
