/**
 * The cloud link's wire and bus messages (issue-5 contract). Device ↔ server over one
 * WebSocket per device (JSON text frames); server process ↔ server process over the bus,
 * so an action asked on one process reaches the link held by another.
 */

import { SUPERVISOR_ACTIONS, type SupervisorAction } from '@flotilla/model';

/** The supervisor API over the link: the model's list (packages/model device/actions.ts). */
export const DEVICE_ACTIONS = SUPERVISOR_ACTIONS;
export type DeviceAction = SupervisorAction;

/** Server → device. */
export interface ActionFrame {
  type: 'action';
  id: string;
  action: DeviceAction;
  params: Record<string, unknown>;
}

/**
 * Server → device, no answer expected: the device's target state may have changed (a new
 * release, a pin, a variable…), so it should poll soon — at a random moment within
 * `withinMs`, so the devices of a large fleet do not all poll in the same instant. The poll
 * stays the only way a device learns its target (the frame carries no state); a device that
 * misses the frame finds the change at its next regular poll.
 */
export interface TargetChangedFrame {
  type: 'target-changed';
  withinMs: number;
}

/**
 * The spread of the polls that one change sets off: about 2 ms per notified device (500 polls/s
 * at most from one change), at least 1 s, at most 60 s.
 */
export function targetChangedSpreadMs(devices: number): number {
  return Math.min(60_000, Math.max(1_000, devices * 2));
}

/** Device → server. 423 = update lock (`force: true` in the params overrides it). */
export interface ResultFrame {
  type: 'result';
  id: string;
  status: number;
  body: unknown;
}

/** Bus: an action for the process holding `deviceId`'s link. */
export const actionChannel = (deviceId: number) => `device-link:action:${deviceId}`;
export interface ActionRequest {
  requestId: string;
  action: DeviceAction;
  params: Record<string, unknown>;
  replyTo: string;
}
export interface ActionReply {
  requestId: string;
  status: number;
  body: unknown;
}

/**
 * Bus, on the device's action channel: a link for the device opened (`linkId` names it);
 * every other link of that device, on any process, closes (a device has at most one link).
 * Sharing the action channel keeps one subscription per link (memory at thousands of links,
 * one SUBSCRIBE on Redis).
 */
export interface LinkOpened {
  type: 'link-opened';
  linkId: string;
}

export function isLinkOpened(v: unknown): v is LinkOpened {
  return typeof v === 'object' && v !== null && (v as LinkOpened).type === 'link-opened' && typeof (v as LinkOpened).linkId === 'string';
}

export function isResultFrame(v: unknown): v is ResultFrame {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return r.type === 'result' && typeof r.id === 'string' && Number.isInteger(r.status) && (r.status as number) >= 100 && (r.status as number) <= 599;
}

export function isActionRequest(v: unknown): v is ActionRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.requestId === 'string' &&
    typeof r.replyTo === 'string' &&
    (DEVICE_ACTIONS as readonly string[]).includes(r.action as string) &&
    typeof r.params === 'object' &&
    r.params !== null
  );
}

// ---------------------------------------------------------------------------------------------
// Terminal sessions over the link (issue 15 item 2; docs/terminal.md "Over the cloud link").
// ---------------------------------------------------------------------------------------------

/**
 * Server → device, one session each: `terminal-open` (service null = the host), then
 * `terminal-input` (keystrokes), `terminal-resize`, `terminal-ack` (output credit: the
 * browser-side process took `chars` characters of output off the device's window) and
 * `terminal-close`. Device → server: `terminal-status` (spawning, then connect),
 * `terminal-output` and `terminal-exit` (the TTY ended or could not open; `reason` says why).
 */
export type TerminalLinkFrame =
  | { type: 'terminal-open'; session: string; service: string | null; cols: number; rows: number }
  | { type: 'terminal-input'; session: string; data: string }
  | { type: 'terminal-resize'; session: string; cols: number; rows: number }
  | { type: 'terminal-ack'; session: string; chars: number }
  | { type: 'terminal-close'; session: string };

export type TerminalDeviceFrame =
  | { type: 'terminal-status'; session: string; state: 'spawning' | 'connect' }
  | { type: 'terminal-output'; session: string; data: string }
  | { type: 'terminal-exit'; session: string; reason: string };

/** Output characters a device sends for a session before it waits for acknowledgements. */
export const TERMINAL_WINDOW_CHARS = 256 * 1024;

/** Bus, on the device's action channel: open a session on whichever process holds the link. */
export type TerminalOpenRequest = Extract<TerminalLinkFrame, { type: 'terminal-open' }>;

/** Bus: browser-side process → link holder (input, resize, ack, close) for one session. */
export const terminalInChannel = (session: string) => `terminal:${session}:in`;
/** Bus: link holder → browser-side process (status, output, exit) for one session. */
export const terminalOutChannel = (session: string) => `terminal:${session}:out`;

export type TerminalToDevice =
  | { kind: 'input'; data: string }
  | { kind: 'resize'; cols: number; rows: number }
  | { kind: 'ack'; chars: number }
  | { kind: 'close' };
export type TerminalFromDevice =
  | { kind: 'status'; state: 'spawning' | 'connect' }
  | { kind: 'output'; data: string }
  | { kind: 'exit'; reason: string };

const SESSION_ID = /^[0-9a-f-]{36}$/;

export function isTerminalOpenRequest(v: unknown): v is TerminalOpenRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    r.type === 'terminal-open' &&
    typeof r.session === 'string' &&
    SESSION_ID.test(r.session) &&
    (r.service === null || typeof r.service === 'string') &&
    Number.isInteger(r.cols) &&
    Number.isInteger(r.rows)
  );
}

export function isTerminalDeviceFrame(v: unknown): v is TerminalDeviceFrame {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  if (typeof r.session !== 'string') return false;
  switch (r.type) {
    case 'terminal-status':
      return r.state === 'spawning' || r.state === 'connect';
    case 'terminal-output':
      return typeof r.data === 'string';
    case 'terminal-exit':
      return typeof r.reason === 'string';
    default:
      return false;
  }
}
