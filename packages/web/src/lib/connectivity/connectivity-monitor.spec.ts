import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showsApiUnreachable } from '../errors';
import { ConnectivityMonitor, probeRetryDelay } from './connectivity-monitor';

/** A probe whose answer the test sets; it counts its calls. */
function fakeProbe() {
  const probe = { up: false, calls: 0, run: async () => (probe.calls++, probe.up) };
  return probe;
}

describe('probeRetryDelay', () => {
  it('starts at 10 s and adds 200 ms per failure, counting at most 10 failures', () => {
    expect(probeRetryDelay(0)).toBe(10_000);
    expect(probeRetryDelay(1)).toBe(10_200);
    expect(probeRetryDelay(3)).toBe(10_600);
    expect(probeRetryDelay(10)).toBe(12_000);
    expect(probeRetryDelay(25)).toBe(12_000);
  });
});

describe('ConnectivityMonitor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('raises the offline flag at the third failed ping, with the retry delays between pings', async () => {
    const probe = fakeProbe();
    const monitor = new ConnectivityMonitor(probe.run);
    monitor.reportFailure(); // a request failed: failure 1, and a ping at once
    await vi.advanceTimersByTimeAsync(0);
    expect(probe.calls).toBe(1);
    expect(monitor.getState()).toMatchObject({ failures: 2, offline: false });
    // The next ping waits 10 s + 2 × 200 ms.
    await vi.advanceTimersByTimeAsync(10_399);
    expect(probe.calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe.calls).toBe(2);
    expect(monitor.getState()).toMatchObject({ failures: 3, offline: true });
    // Probing goes on while offline: the next after 10 s + 3 × 200 ms.
    await vi.advanceTimersByTimeAsync(10_599);
    expect(probe.calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe.calls).toBe(3);
    expect(monitor.getState().failures).toBe(4);
    monitor.dispose();
  });

  it('counts failed requests too: three at once raise the flag', async () => {
    const probe = fakeProbe();
    const monitor = new ConnectivityMonitor(probe.run);
    monitor.reportFailure();
    expect(monitor.getState().offline).toBe(false);
    monitor.reportFailure();
    expect(monitor.getState().offline).toBe(false);
    monitor.reportFailure();
    expect(monitor.getState().offline).toBe(true);
    monitor.dispose();
  });

  it('never waits more than 12 s between pings however long the API is away', async () => {
    const probe = fakeProbe();
    const monitor = new ConnectivityMonitor(probe.run);
    monitor.reportFailure();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 15; i += 1) await vi.advanceTimersByTimeAsync(12_000);
    expect(probe.calls).toBe(16);
    monitor.dispose();
  });

  it('clears the flag and the count when a ping answers, and tells its listeners', async () => {
    const probe = fakeProbe();
    const monitor = new ConnectivityMonitor(probe.run);
    const seen: boolean[] = [];
    monitor.subscribe(() => seen.push(monitor.getState().offline));
    monitor.reportFailure();
    monitor.reportFailure();
    monitor.reportFailure();
    await vi.advanceTimersByTimeAsync(0);
    expect(monitor.getState().offline).toBe(true);
    probe.up = true;
    await vi.advanceTimersByTimeAsync(probeRetryDelay(4));
    expect(monitor.getState()).toMatchObject({ offline: false, failures: 0 });
    expect(seen.at(-1)).toBe(false);
    // Recovered: no more pings.
    const calls = probe.calls;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe.calls).toBe(calls);
    monitor.dispose();
  });

  it('Retry probes at once, and a success from any request clears the flag too', async () => {
    const probe = fakeProbe();
    const monitor = new ConnectivityMonitor(probe.run);
    for (let i = 0; i < 3; i += 1) monitor.reportFailure();
    await vi.advanceTimersByTimeAsync(0);
    const calls = probe.calls;
    const retry = monitor.retryNow();
    expect(monitor.getState().checking).toBe(true);
    await retry;
    expect(probe.calls).toBe(calls + 1);
    expect(monitor.getState()).toMatchObject({ checking: false, offline: true });
    monitor.reportSuccess();
    expect(monitor.getState()).toMatchObject({ offline: false, failures: 0 });
    monitor.dispose();
  });

  it('does not count a ping that failed after another request already answered', async () => {
    let answer: (ok: boolean) => void = () => {};
    const monitor = new ConnectivityMonitor(() => new Promise<boolean>((resolve) => (answer = resolve)));
    monitor.reportFailure();
    monitor.reportSuccess();
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(monitor.getState()).toMatchObject({ offline: false, failures: 0 });
    monitor.dispose();
  });
});

describe('showsApiUnreachable', () => {
  it('is true for no answer and for gateway errors', () => {
    expect(showsApiUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(showsApiUnreachable(new Error('network timeout'))).toBe(true);
    for (const statusCode of [502, 503, 504]) expect(showsApiUnreachable({ statusCode })).toBe(true);
  });

  it('is false for answers and for errors raised before sending', () => {
    for (const statusCode of [400, 401, 404, 429, 500]) expect(showsApiUnreachable({ statusCode })).toBe(false);
    expect(showsApiUnreachable(Object.assign(new Error('You have to log in'), { code: 'BalenaNotLoggedIn' }))).toBe(false);
    expect(showsApiUnreachable(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(false);
    expect(showsApiUnreachable('nope')).toBe(false);
  });
});
