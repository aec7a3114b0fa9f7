import { describe, expect, it } from 'vitest';
import { actionDisabledReason, batchOutcome, confirmList, contractSupportsBlink, isUpdateLocked, lastSeen, metricColour, usagePercent, type ActionFacts } from './device-rules';

const ok: ActionFacts = { is_online: true, overall_status: 'operational', supportsBlink: true, allowed: true };

describe('metricColour', () => {
  it('is success up to 60 %, warning up to 80 %, error above', () => {
    expect(metricColour(0)).toBe('success');
    expect(metricColour(60)).toBe('success');
    expect(metricColour(61)).toBe('warning');
    expect(metricColour(80)).toBe('warning');
    expect(metricColour(81)).toBe('error');
    expect(metricColour(100)).toBe('error');
  });
});

describe('usagePercent', () => {
  it('rounds usage over total and clamps it', () => {
    expect(usagePercent(512, 1024)).toBe(50);
    expect(usagePercent(2, 3)).toBe(67);
    expect(usagePercent(2048, 1024)).toBe(100);
  });
  it('has no value without a usage or a positive total', () => {
    expect(usagePercent(null, 1024)).toBeUndefined();
    expect(usagePercent(10, 0)).toBeUndefined();
    expect(usagePercent(10, null)).toBeUndefined();
  });
});

describe('actionDisabledReason', () => {
  it('allows every action on an online, provisioned, LED-capable device', () => {
    for (const a of ['identify', 'restart', 'reboot', 'shutdown', 'purge'] as const) expect(actionDisabledReason(a, ok)).toBeUndefined();
  });
  it('needs the permission first', () => {
    expect(actionDisabledReason('reboot', { ...ok, allowed: false, is_online: false })).toBe('permission_denied');
  });
  it('disables every action on a frozen device (issue 18), after the permission', () => {
    for (const a of ['identify', 'restart', 'reboot', 'shutdown', 'purge'] as const) expect(actionDisabledReason(a, { ...ok, frozen: true })).toBe('device_frozen');
    expect(actionDisabledReason('reboot', { ...ok, frozen: true, is_online: false })).toBe('device_frozen');
    expect(actionDisabledReason('reboot', { ...ok, frozen: true, allowed: false })).toBe('permission_denied');
    expect(actionDisabledReason('reboot', { ...ok, frozen: false })).toBeUndefined();
  });
  it("says 'device must be online' for an offline device", () => {
    expect(actionDisabledReason('identify', { ...ok, is_online: false })).toBe('device_must_be_online');
    expect(actionDisabledReason('restart', { ...ok, is_online: false })).toBe('device_must_be_online');
  });
  it('refuses identify on a device type without an LED', () => {
    expect(actionDisabledReason('identify', { ...ok, supportsBlink: false })).toBe('no_blink_support');
    expect(actionDisabledReason('reboot', { ...ok, supportsBlink: false })).toBeUndefined();
  });
  it('blocks purge, reboot and shutdown until fully provisioned, not identify or restart', () => {
    for (const status of ['configuring', 'post-provisioning', null]) {
      const facts = { ...ok, overall_status: status };
      expect(actionDisabledReason('purge', facts)).toBe('not_fully_provisioned');
      expect(actionDisabledReason('reboot', facts)).toBe('not_fully_provisioned');
      expect(actionDisabledReason('shutdown', facts)).toBe('not_fully_provisioned');
      expect(actionDisabledReason('identify', facts)).toBeUndefined();
      expect(actionDisabledReason('restart', facts)).toBeUndefined();
    }
  });
});

describe('contractSupportsBlink', () => {
  it('reads data.led of the contract', () => {
    expect(contractSupportsBlink({ data: { led: true } })).toBe(true);
    expect(contractSupportsBlink({ data: { led: false } })).toBe(false);
    expect(contractSupportsBlink({})).toBe(false);
    expect(contractSupportsBlink(null)).toBe(false);
  });
});

describe('batchOutcome', () => {
  const ok1: PromiseSettledResult<unknown> = { status: 'fulfilled', value: 1 };
  const bad = (reason: string): PromiseSettledResult<unknown> => ({ status: 'rejected', reason });
  it('succeeds when nothing failed', () => {
    expect(batchOutcome([ok1, ok1])).toEqual({ kind: 'success' });
  });
  it('counts the failures when only some failed', () => {
    expect(batchOutcome([ok1, bad('a'), bad('b')])).toEqual({ kind: 'partial', failed: 2 });
  });
  it('fails with the first error when all failed', () => {
    expect(batchOutcome([bad('first'), bad('second')])).toEqual({ kind: 'failed', error: 'first' });
  });
});

describe('confirmList', () => {
  it('shows at most 10 items and counts the rest', () => {
    const items = Array.from({ length: 13 }, (_, i) => i);
    expect(confirmList(items)).toEqual({ shown: items.slice(0, 10), more: 3 });
    expect(confirmList([1, 2])).toEqual({ shown: [1, 2], more: 0 });
  });
});

describe('isUpdateLocked', () => {
  it('recognises a 423 answer', () => {
    expect(isUpdateLocked({ statusCode: 423 })).toBe(true);
    expect(isUpdateLocked({ statusCode: 400 })).toBe(false);
    expect(isUpdateLocked('x')).toBe(false);
  });
});

describe('lastSeen (issue 11: "last seen" was frozen at connect time)', () => {
  it('is now while the cloud link is up', () => {
    expect(lastSeen({ is_online: true, last_connectivity_event: '2026-01-01T00:00:00Z', api_heartbeat_at: '2026-01-01T00:05:00Z' })).toEqual({ now: true });
  });

  it('is the later of the last connectivity event and the last state poll when offline', () => {
    expect(lastSeen({ is_online: false, last_connectivity_event: '2026-01-01T00:00:00Z', api_heartbeat_at: '2026-01-01T00:05:00Z' })).toEqual({ now: false, at: '2026-01-01T00:05:00Z' });
    expect(lastSeen({ is_online: false, last_connectivity_event: '2026-01-01T00:10:00Z', api_heartbeat_at: '2026-01-01T00:05:00Z' })).toEqual({ now: false, at: '2026-01-01T00:10:00Z' });
    expect(lastSeen({ is_online: false, last_connectivity_event: null, api_heartbeat_at: null })).toEqual({ now: false, at: null });
  });
});
