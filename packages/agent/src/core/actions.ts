/**
 * The device actions of the cloud link (contract: `{"type":"action","id","action","params"}`)
 * and their answers in the supervisor's shape (`{Data, Error}`), with the update lock: while
 * the lock is held, actions that would stop or restart services answer 423 unless
 * `params.force` is true (balena's `SupervisorLocked`).
 */

import { SUPERVISOR_ACTIONS, UPDATE_LOCKED_ACTIONS, type SupervisorAction } from '@flotilla/model';

/** The actions the server may send: the model's list (packages/model device/actions.ts). */
export const ACTIONS = SUPERVISOR_ACTIONS;
export type ActionName = SupervisorAction;

export interface ActionMessage {
  type: 'action';
  id: string;
  action: ActionName;
  params: Record<string, unknown>;
}

export interface ActionResult {
  status: number;
  body: unknown;
}

/** Actions the update lock holds back (everything that interrupts running services): the model's set. */
const LOCKED_ACTIONS = UPDATE_LOCKED_ACTIONS;

export const ok = (data: unknown = 'OK'): ActionResult => ({ status: 200, body: { Data: data, Error: null } });
export const fail = (status: number, error: string): ActionResult => ({ status, body: { Data: null, Error: error } });
export const LOCKED_MESSAGE = 'Updates are locked';

/** Parses a frame from the server; null for anything that is not a well-formed action. */
export function parseActionMessage(text: string): ActionMessage | null {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null) return null;
  const m = msg as Record<string, unknown>;
  if (m.type !== 'action' || typeof m.id !== 'string' || typeof m.action !== 'string') return null;
  const params = typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : {};
  return { type: 'action', id: m.id, action: m.action as ActionName, params };
}

/**
 * The server's notice that this device's target state may have changed (a new release, a
 * pin, a variable): poll at a random moment within `withinMs`. Null for any other frame.
 */
export function parseTargetChanged(text: string): { withinMs: number } | null {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof msg !== 'object' || msg === null || (msg as { type?: unknown }).type !== 'target-changed') return null;
  const within = (msg as { withinMs?: unknown }).withinMs;
  // Bounded whatever the server says: at most a minute.
  return { withinMs: typeof within === 'number' && Number.isFinite(within) ? Math.min(60_000, Math.max(0, within)) : 0 };
}

/** `force` may come at the top of params or inside `data` as the supervisor API nests it. */
export function isForced(params: Record<string, unknown>): boolean {
  const data = params.data as Record<string, unknown> | undefined;
  return params.force === true || data?.force === true;
}

/** 423 when the lock blocks `action`, otherwise null (go ahead). */
export function lockCheck(action: ActionName, params: Record<string, unknown>, locked: boolean): ActionResult | null {
  if (!locked || !LOCKED_ACTIONS.has(action) || isForced(params)) return null;
  return fail(423, LOCKED_MESSAGE);
}

/** Which service a service action means: by `serviceName` or by `imageId` (supervisor v2 bodies). */
export function serviceSelector(params: Record<string, unknown>): { serviceName?: string; imageId?: number } {
  const data = (params.data as Record<string, unknown> | undefined) ?? {};
  const name = params.serviceName ?? data.serviceName;
  const image = params.imageId ?? data.imageId;
  return {
    ...(typeof name === 'string' ? { serviceName: name } : {}),
    ...(image !== undefined && Number.isFinite(Number(image)) ? { imageId: Number(image) } : {}),
  };
}

export function resultFrame(id: string, result: ActionResult): string {
  return JSON.stringify({ type: 'result', id, status: result.status, body: result.body });
}
