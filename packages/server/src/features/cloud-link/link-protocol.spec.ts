import { describe, expect, it } from 'vitest';
import { isActionRequest, isResultFrame } from './link-protocol.js';

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
