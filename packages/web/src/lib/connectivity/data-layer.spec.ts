import { onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectivityMonitor } from './connectivity-monitor';
import { connectivityInterceptor, followConnectivity } from './data-layer';
import { RateLimitNotice } from './rate-limit';

/**
 * A stand-in for balena-sdk's request layer in a unit test: `send` runs the interceptor on the
 * outcome of a fake server that is up or down.
 */
function fakeApi(monitor: ConnectivityMonitor, notice: RateLimitNotice) {
  const interceptor = connectivityInterceptor(monitor, notice);
  const api = {
    up: true,
    gets: 0,
    async send(): Promise<{ body: string }> {
      api.gets += 1;
      if (!api.up) return interceptor.responseError(new TypeError('Failed to fetch'));
      return interceptor.response({ body: `answer ${api.gets}` });
    },
  };
  return api;
}

const rateLimited = (retryAfter: string, method?: string) =>
  Object.assign(new Error('Request error: Too Many Requests'), {
    statusCode: 429,
    responseHeaders: { get: (name: string) => (name.toLowerCase() === 'retry-after' ? retryAfter : null) },
    requestOptions: { method } as Record<string, unknown>,
  });

describe('the connectivity interceptor with TanStack Query', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    onlineManager.setOnline(true);
  });

  it('keeps a read that failed while offline and sends it again on recovery', async () => {
    let pingUp = false;
    const monitor = new ConnectivityMonitor(async () => pingUp);
    const notice = new RateLimitNotice();
    const api = fakeApi(monitor, notice);
    followConnectivity(monitor, null);
    const client = new QueryClient({ defaultOptions: { queries: { retry: 2, retryDelay: 1_000 } } });
    client.mount();
    api.up = false;
    const observer = new QueryObserver(client, { queryKey: ['fleets'], queryFn: () => api.send() });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    // The request failed, the ping failed, the query's first retry failed: offline.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(monitor.getState().offline).toBe(true);
    expect(onlineManager.isOnline()).toBe(false);
    // While offline the query waits rather than fails, and nothing is sent.
    const sent = api.gets;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(api.gets).toBe(sent);
    expect(observer.getCurrentResult().fetchStatus).toBe('paused');

    // The API is back: the next ping answers, the flag clears, the read goes out and lands.
    api.up = true;
    pingUp = true;
    await vi.advanceTimersByTimeAsync(12_000);
    expect(monitor.getState().offline).toBe(false);
    expect(onlineManager.isOnline()).toBe(true);
    expect(observer.getCurrentResult()).toMatchObject({ status: 'success', data: { body: `answer ${api.gets}` } });
    unsubscribe();
    client.unmount();
    monitor.dispose();
  });

  it('refetches a query that had failed for good while the API was away', async () => {
    let pingUp = false;
    const monitor = new ConnectivityMonitor(async () => pingUp);
    const api = fakeApi(monitor, new RateLimitNotice());
    followConnectivity(monitor, null);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.mount();
    api.up = false;
    const observer = new QueryObserver(client, { queryKey: ['devices'], queryFn: () => api.send() });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().status).toBe('error');
    monitor.reportFailure(); // another request failed too
    expect(monitor.getState().offline).toBe(true);
    api.up = true;
    pingUp = true;
    await monitor.retryNow(); // the banner's Retry
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().status).toBe('success');
    unsubscribe();
    client.unmount();
    monitor.dispose();
  });

  it('does not hold back a write while offline: it fails and the caller tells the user', async () => {
    const monitor = new ConnectivityMonitor(async () => false);
    followConnectivity(monitor, null);
    const client = new QueryClient({ defaultOptions: { mutations: { networkMode: 'always', retry: false } } });
    client.mount();
    for (let i = 0; i < 3; i += 1) monitor.reportFailure();
    expect(onlineManager.isOnline()).toBe(false);
    const send = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const mutation = client.getMutationCache().build(client, { mutationFn: send });
    await expect(mutation.execute(undefined)).rejects.toThrow('Failed to fetch');
    expect(send).toHaveBeenCalledTimes(1);
    // Back online: nothing is sent again behind the user's back.
    monitor.reportSuccess();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(send).toHaveBeenCalledTimes(1);
    client.unmount();
    monitor.dispose();
  });

  it('shows the throttling banner on a 429 and lets the SDK retry reads only, at most 3 times', () => {
    const monitor = new ConnectivityMonitor(async () => true);
    const notice = new RateLimitNotice();
    const interceptor = connectivityInterceptor(monitor, notice);
    const read = rateLimited('2');
    for (let i = 0; i < 3; i += 1) {
      expect(() => interceptor.responseError(read)).toThrow();
      expect(read.requestOptions.doNotRetry).toBeUndefined();
    }
    expect(() => interceptor.responseError(read)).toThrow();
    expect(read.requestOptions.doNotRetry).toBe(true);
    expect(notice.getUntil()).toBe(Date.now() + 5_000);

    const write = rateLimited('2', 'POST');
    expect(() => interceptor.responseError(write)).toThrow();
    expect(write.requestOptions.doNotRetry).toBe(true);

    const locked = rateLimited('7200');
    expect(() => interceptor.responseError(locked)).toThrow();
    expect(locked.requestOptions.doNotRetry).toBe(true);
    expect(notice.getUntil()).toBe(Date.now() + 7_200_000);
    // A 429 is an answer: it is not a connectivity failure.
    expect(monitor.getState().failures).toBe(0);
    notice.dispose();
    monitor.dispose();
  });
});
