import { describe, expect, it } from 'vitest';
import { isForced, lockCheck, parseActionMessage, parseTargetChanged, resultFrame, serviceSelector } from './actions.js';

describe('cloud-link actions', () => {
  it('reads the target-changed notice, its spread bounded to a minute, and nothing else', () => {
    expect(parseTargetChanged('{"type":"target-changed","withinMs":2000}')).toEqual({ withinMs: 2000 });
    expect(parseTargetChanged('{"type":"target-changed","withinMs":1e12}')).toEqual({ withinMs: 60_000 });
    expect(parseTargetChanged('{"type":"target-changed"}')).toEqual({ withinMs: 0 });
    expect(parseTargetChanged('{"type":"action","id":"1","action":"update"}')).toBeNull();
    expect(parseTargetChanged('not json')).toBeNull();
  });

  it('parses an action frame and ignores anything else', () => {
    expect(parseActionMessage('{"type":"action","id":"r1","action":"blink","params":{}}')).toEqual({ type: 'action', id: 'r1', action: 'blink', params: {} });
    expect(parseActionMessage('{"type":"action","id":"r2","action":"reboot"}')?.params).toEqual({});
    expect(parseActionMessage('not json')).toBeNull();
    expect(parseActionMessage('{"type":"result","id":"x"}')).toBeNull();
    expect(parseActionMessage('{"type":"action","action":"reboot"}')).toBeNull();
  });

  it('answers 423 under the update lock for actions that stop services, unless forced', () => {
    expect(lockCheck('reboot', {}, true)).toEqual({ status: 423, body: { Data: null, Error: 'Updates are locked' } });
    expect(lockCheck('stop-service', {}, true)?.status).toBe(423);
    expect(lockCheck('reboot', { force: true }, true)).toBeNull();
    expect(lockCheck('reboot', { data: { force: true } }, true)).toBeNull();
    expect(lockCheck('blink', {}, true)).toBeNull();
    expect(lockCheck('update', {}, true)).toBeNull();
    expect(lockCheck('reboot', {}, false)).toBeNull();
    expect(isForced({ force: 'yes' })).toBe(false);
  });

  it('selects a service by name or image id, flat or nested in data', () => {
    expect(serviceSelector({ serviceName: 'web' })).toEqual({ serviceName: 'web' });
    expect(serviceSelector({ data: { imageId: '42' } })).toEqual({ imageId: 42 });
    expect(serviceSelector({})).toEqual({});
  });

  it('frames a result', () => {
    expect(JSON.parse(resultFrame('r1', { status: 200, body: { Data: 'OK', Error: null } }))).toEqual({ type: 'result', id: 'r1', status: 200, body: { Data: 'OK', Error: null } });
  });
});
