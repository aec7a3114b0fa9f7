import { randomUUID } from 'node:crypto';
import {
  ACTION_RUN_LIMITS,
  LONG_ACTION_SUPERVISOR_ACTION,
  type ActionRun,
  type HealthCheck,
  type HealthCheckOutput,
  type LongAction,
} from '@flotilla/model';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../infra/bus/bus.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError, ForbiddenError, HttpError, NotFoundError, UnauthorizedError } from '../../infra/errors.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataRead } from '../../infra/odata/index.js';
import { ActionRelay } from '../actions/index.js';
import { deviceOperationAllowed } from '../devices/index.js';
import { claimRun, finishRun, selectRun, type RunRow } from './device-diagnostics.repository.js';

/**
 * The actions service (spec 2 §7, issue 15 item 3): long-running device actions — health
 * checks and diagnose — started by `POST` and read by `GET`, their runs kept in PostgreSQL.
 * The process that starts a run sends it over the device's cloud link (the actions relay,
 * through the bus to whichever process holds the link) and stores the device's answer; any
 * process reads the same row. A run whose waiting process stopped is past its deadline and
 * reads as an error, and may be started again.
 */

/** Spec 2 §4 / §8 (the actions that need an online device). */
export const DEVICE_MUST_BE_ONLINE = 'device must be online';
export const PERMISSION_DENIED = "You don't have the required permission for this action";
export const RUN_IN_PROGRESS = 'A run of this action is already in progress on this device';
export const DEVICE_NOT_FOUND = 'Device not found';

/** Past the relay's timeout, how long a row stays "in progress" before any process treats it as abandoned. */
const DEADLINE_GRACE_MS = 30_000;

const literal = (s: string) => `'${encodeURIComponent(s.replaceAll("'", "''"))}'`;

interface DeviceRow {
  id: number;
  is_online: boolean;
}

const IDLE: ActionRun = { status: 'idle', stdout: null, error: null, lastRun: null };

function present(row: RunRow | null, timeoutMs: number): ActionRun {
  if (!row) return IDLE;
  if (row.expired) {
    return {
      status: 'error',
      stdout: null,
      error: `The run did not finish: the server waiting for the device's answer stopped, or the device gave none within ${Math.round(timeoutMs / 1000)} s. Run it again`,
      lastRun: row.started_at.toISOString(),
    };
  }
  return { status: row.status, stdout: row.stdout ?? null, error: row.error, lastRun: row.started_at.toISOString() };
}

/** Text cut at `max` characters with a note. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n[… cut by the server: ${text.length - max} more characters not stored]\n`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

/** A device's `checks` answer, validated and bounded; undefined when it is not that shape. */
export function checksFrom(data: unknown): HealthCheckOutput | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as { checks?: unknown; diagnose_version?: unknown };
  if (!Array.isArray(d.checks)) return undefined;
  const L = ACTION_RUN_LIMITS;
  const checks: HealthCheck[] = [];
  for (const c of d.checks.slice(0, L.maxChecks)) {
    if (typeof c !== 'object' || c === null) return undefined;
    const { name, success, status } = c as Record<string, unknown>;
    if (typeof name !== 'string' || typeof success !== 'boolean' || typeof status !== 'string') return undefined;
    checks.push({ name: name.slice(0, L.maxCheckNameChars), success, status: status.slice(0, L.maxCheckStatusChars) });
  }
  return { checks, diagnose_version: typeof d.diagnose_version === 'string' ? d.diagnose_version.slice(0, 50) : '' };
}

/** How the device's answer (or the relay's failure) ends the run. */
export function outcomeOf(action: LongAction, answer: { status: number; body: unknown }, timeoutMs: number): { status: 'done' | 'error'; stdout: unknown; error: string | null } {
  const L = ACTION_RUN_LIMITS;
  const error = (message: string) => ({ status: 'error' as const, stdout: null, error: cutText(message, L.maxErrorChars) });
  const body = answer.body as { Data?: unknown; Error?: unknown } | string | null;
  if (answer.status === 504) return error(`The device did not answer within ${Math.round(timeoutMs / 1000)} s. Check that it is online and its agent is running, then run it again`);
  if (answer.status === 502 && answer.body === 'The device disconnected') return error('The device disconnected during the run. Run it again once it is back online');
  if (answer.status === 502 && typeof answer.body === 'string') return error(`The run could not reach the device (${answer.body}). Run it again`);
  if (answer.status === 501) return error(`This device's agent cannot run ${action === 'checks' ? 'health checks' : 'diagnostics'}. Update the agent`);
  if (answer.status !== 200 || typeof body !== 'object' || body === null) {
    const said = typeof body === 'string' ? body : typeof body?.Error === 'string' ? body.Error : JSON.stringify(body);
    return error(`The device could not run it (HTTP ${answer.status}): ${said}`);
  }
  if (action === 'checks') {
    const out = checksFrom(body.Data);
    return out ? { status: 'done', stdout: out, error: null } : error('The device answered health checks in a shape this server does not know. Update the agent');
  }
  const data = body.Data as { stdout?: unknown; stderr?: unknown } | null;
  if (typeof data?.stdout !== 'string') return error('The device answered diagnostics in a shape this server does not know. Update the agent');
  const stderr = typeof data.stderr === 'string' && data.stderr !== '' ? cutText(data.stderr, L.maxErrorChars) : null;
  return { status: 'done', stdout: cutText(data.stdout, L.maxStdoutChars), error: stderr };
}

export interface ActionRunsOptions {
  db: Db;
  bus: Bus;
  log: FastifyBaseLogger;
  /** How long the device has to answer each action (default ACTION_RUN_LIMITS.timeoutMs). */
  timeoutMs?: Partial<Record<LongAction, number>>;
  /**
   * Called with the device's id before a run starts, once the caller is known to see the
   * device and hold the right (billing: a frozen organization's devices run nothing, 402).
   */
  beforeStart?: (deviceId: number) => Promise<void>;
}

export class ActionRuns {
  private readonly relays: Record<LongAction, ActionRelay>;
  private readonly timeouts: Record<LongAction, number>;
  /** Runs this process waits for (ended as errors if the app closes first). */
  private readonly waiting = new Map<string, Promise<void>>();
  private closing = false;

  constructor(private readonly o: ActionRunsOptions) {
    this.timeouts = { checks: o.timeoutMs?.checks ?? ACTION_RUN_LIMITS.timeoutMs.checks, diagnose: o.timeoutMs?.diagnose ?? ACTION_RUN_LIMITS.timeoutMs.diagnose };
    this.relays = { checks: new ActionRelay(o.bus, this.timeouts.checks), diagnose: new ActionRelay(o.bus, this.timeouts.diagnose) };
  }

  /** The device `uuid` when the caller may run diagnostics on it: 401 anonymous, 404 unseen, 403 without the right. */
  private async device(actor: Actor | null, uuid: string): Promise<DeviceRow> {
    if (!actor) throw new UnauthorizedError();
    if (actor.kind !== 'user') throw new ForbiddenError(PERMISSION_DENIED);
    const [device] = await odataRead<DeviceRow>(this.o.db, { actorId: actor.actorId, permissions: actor.permissions }, `/device?$select=id,is_online&$filter=uuid eq ${literal(uuid)}`);
    if (!device) throw new NotFoundError(DEVICE_NOT_FOUND);
    if (!(await deviceOperationAllowed(this.o.db, actor, device.id, 'access_diagnostics'))) throw new ForbiddenError(PERMISSION_DENIED);
    return device;
  }

  async read(actor: Actor | null, uuid: string, action: LongAction): Promise<ActionRun> {
    const device = await this.device(actor, uuid);
    return present(await selectRun(this.o.db, device.id, action), this.timeouts[action]);
  }

  async start(actor: Actor | null, uuid: string, action: LongAction, params: Record<string, unknown>): Promise<ActionRun> {
    if (Buffer.byteLength(JSON.stringify(params)) > ACTION_RUN_LIMITS.maxParamsBytes) {
      throw new BadRequestError(`params must be at most ${ACTION_RUN_LIMITS.maxParamsBytes} bytes of JSON`);
    }
    const device = await this.device(actor, uuid);
    await this.o.beforeStart?.(device.id);
    if (!device.is_online) throw new BadRequestError(DEVICE_MUST_BE_ONLINE);
    if (this.closing) throw new HttpError(503, 'The server is shutting down; run it again in a moment');
    const runId = randomUUID();
    const timeoutMs = this.timeouts[action];
    const row = await claimRun(this.o.db, { deviceId: device.id, action, runId, params, deadlineMs: timeoutMs + DEADLINE_GRACE_MS });
    if (!row) throw new ConflictError(RUN_IN_PROGRESS);
    const waiting = this.runOnDevice(device.id, action, runId, params).finally(() => this.waiting.delete(runId));
    this.waiting.set(runId, waiting);
    return present(row, timeoutMs);
  }

  private async runOnDevice(deviceId: number, action: LongAction, runId: string, params: Record<string, unknown>): Promise<void> {
    const timeoutMs = this.timeouts[action];
    let answer: { status: number; body: unknown };
    try {
      answer = await this.relays[action].request(deviceId, LONG_ACTION_SUPERVISOR_ACTION[action], params);
    } catch (err) {
      answer = { status: err instanceof HttpError ? err.statusCode : 502, body: err instanceof Error ? err.message : String(err) };
    }
    if (this.closing) return;
    await finishRun(this.o.db, runId, outcomeOf(action, answer, timeoutMs)).catch((err: unknown) => this.o.log.error({ err, deviceId, action }, 'actions service: could not store a run'));
  }

  /** App close: stop waiting and end this process's runs in error (the device's answer would have nowhere to go). */
  async close(): Promise<void> {
    this.closing = true;
    const runs = [...this.waiting.keys()];
    await Promise.all(Object.values(this.relays).map((r) => r.close()));
    for (const runId of runs) {
      await finishRun(this.o.db, runId, { status: 'error', stdout: null, error: 'The server stopped during the run. Run it again' }).catch(() => undefined);
    }
  }
}
