import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBatchReasonChecker, type DeviceFacts, type ReasonOf } from './batch-reasons';
import { actionDisabledReason, contractSupportsBlink } from './device-rules';

const online: DeviceFacts = { is_online: true, overall_status: 'operational', contract: { data: { led: true } } };
const rule: ReasonOf = (action, f) =>
  actionDisabledReason(action, { is_online: f.is_online, overall_status: f.overall_status, supportsBlink: contractSupportsBlink(f.contract), allowed: true });

describe('createBatchReasonChecker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives each device its reason', async () => {
    const facts: Record<number, DeviceFacts> = { 1: online, 2: { ...online, is_online: false }, 3: { ...online, overall_status: 'configuring' } };
    const check = createBatchReasonChecker(async (id) => facts[id]!);
    const reasons = await check('reboot', [1, 2, 3], true, rule);
    expect([...reasons]).toEqual([
      [1, undefined],
      [2, 'device_must_be_online'],
      [3, 'not_fully_provisioned'],
    ]);
    expect((await check('reboot', [1], false, rule)).get(1)).toBe('permission_denied');
  });

  it('reuses a result for 5000 ms per action and selection', async () => {
    const fetch = vi.fn(async () => online);
    const check = createBatchReasonChecker(fetch);
    await check('reboot', [1, 2], true, rule);
    await check('reboot', [2, 1], true, rule);
    expect(fetch).toHaveBeenCalledTimes(2);
    await check('shutdown', [1, 2], true, rule);
    expect(fetch).toHaveBeenCalledTimes(4);
    vi.advanceTimersByTime(5_000);
    await check('reboot', [1, 2], true, rule);
    expect(fetch).toHaveBeenCalledTimes(6);
  });

  it('checks at most 10 devices at once', async () => {
    vi.useRealTimers();
    let running = 0;
    let peak = 0;
    const check = createBatchReasonChecker(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      return online;
    });
    const ids = Array.from({ length: 37 }, (_, i) => i + 1);
    const reasons = await check('identify', ids, true, rule);
    expect(reasons.size).toBe(37);
    expect(peak).toBe(10);
  });
});
