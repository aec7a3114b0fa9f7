import { describe, expect, it } from 'vitest';
import { ClientGoneError, DatabaseBusyError, FairShare } from './db.js';

describe('FairShare', () => {
  it('lets one caller hold at most its share, so another caller still gets a connection', async () => {
    const share = new FairShare(4, 2, 1_000);
    await share.acquire('a');
    await share.acquire('a');
    let third = false;
    void share.acquire('a').then(() => (third = true));
    await share.acquire('b'); // immediate: 'a' is at its share
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    share.release('a');
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(true);
  });

  it('hands a freed connection to the waiting caller holding the fewest', async () => {
    const share = new FairShare(2, 2, 1_000);
    await share.acquire('a');
    await share.acquire('b');
    const order: string[] = [];
    void share.acquire('a').then(() => order.push('a'));
    void share.acquire('c').then(() => order.push('c'));
    share.release('b');
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['c']);
  });

  it('gives up after the wait time (503) or when the client has gone', async () => {
    const share = new FairShare(1, 1, 50);
    await share.acquire('a');
    await expect(share.acquire('b')).rejects.toBeInstanceOf(DatabaseBusyError);
    const abort = new AbortController();
    const waiting = share.acquire('b', abort.signal);
    abort.abort();
    await expect(waiting).rejects.toBeInstanceOf(ClientGoneError);
    share.release('a');
    await share.acquire('b');
  });
});
