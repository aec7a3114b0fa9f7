import { describe, expect, it } from 'vitest';
import { isActionRequest, isResultFrame, isTerminalDeviceFrame, isTerminalOpenRequest, terminalInChannel, terminalOutChannel } from './link-protocol.js';

describe('cloud link frames', () => {
  it('accepts a device result with an HTTP status and any body', () => {
    expect(isResultFrame({ type: 'result', id: 'a', status: 423, body: { Error: 'locked' } })).toBe(true);
    expect(isResultFrame({ type: 'result', id: 'a', status: 200 })).toBe(true);
  });

  it('rejects results without an id or with a status outside 100-599', () => {
    expect(isResultFrame({ type: 'result', status: 200, body: 'OK' })).toBe(false);
    expect(isResultFrame({ type: 'result', id: 'a', status: 700, body: 'OK' })).toBe(false);
    expect(isResultFrame({ type: 'result', id: 'a', status: '200', body: 'OK' })).toBe(false);
    expect(isResultFrame({ type: 'action', id: 'a', status: 200 })).toBe(false);
    expect(isResultFrame(null)).toBe(false);
  });

  it('relays only known actions from the bus', () => {
    const ok = { requestId: 'r', action: 'reboot', params: { force: true }, replyTo: 'device-link:reply:x' };
    expect(isActionRequest(ok)).toBe(true);
    expect(isActionRequest({ ...ok, action: 'format-disk' })).toBe(false);
    expect(isActionRequest({ ...ok, params: null })).toBe(false);
    expect(isActionRequest({ ...ok, replyTo: undefined })).toBe(false);
  });
});

describe('terminal frames over the link', () => {
  const session = '6f1c2a3e-0b7d-4c55-9a1e-2d3f4a5b6c7d';

  it('accepts a well-formed open request only', () => {
    expect(isTerminalOpenRequest({ type: 'terminal-open', session, service: 'main', cols: 80, rows: 24 })).toBe(true);
    expect(isTerminalOpenRequest({ type: 'terminal-open', session, service: null, cols: 80, rows: 24 })).toBe(true);
    expect(isTerminalOpenRequest({ type: 'terminal-open', session: 'not-a-session', service: null, cols: 80, rows: 24 })).toBe(false);
    expect(isTerminalOpenRequest({ type: 'terminal-open', session, service: 3, cols: 80, rows: 24 })).toBe(false);
    expect(isTerminalOpenRequest({ type: 'terminal-open', session, service: null, cols: 1.5, rows: 24 })).toBe(false);
    expect(isTerminalOpenRequest({ requestId: 'r', action: 'blink', params: {}, replyTo: 'x' })).toBe(false);
  });

  it('recognises the device frames: status, output, exit', () => {
    expect(isTerminalDeviceFrame({ type: 'terminal-status', session, state: 'spawning' })).toBe(true);
    expect(isTerminalDeviceFrame({ type: 'terminal-status', session, state: 'exploded' })).toBe(false);
    expect(isTerminalDeviceFrame({ type: 'terminal-output', session, data: 'x' })).toBe(true);
    expect(isTerminalDeviceFrame({ type: 'terminal-output', session, data: 5 })).toBe(false);
    expect(isTerminalDeviceFrame({ type: 'terminal-exit', session, reason: 'the shell exited' })).toBe(true);
    expect(isTerminalDeviceFrame({ type: 'result', id: '1', status: 200, body: null })).toBe(false);
    expect(isTerminalDeviceFrame(null)).toBe(false);
  });

  it('names one bus channel per session and direction', () => {
    expect(terminalInChannel(session)).toBe(`terminal:${session}:in`);
    expect(terminalOutChannel(session)).toBe(`terminal:${session}:out`);
  });
});
