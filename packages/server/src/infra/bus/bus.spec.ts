import { describe, expect, it } from 'vitest';
import { InProcessBus } from './bus.js';

describe('InProcessBus', () => {
  it('delivers a JSON copy to every subscriber of the channel, asynchronously', async () => {
    const bus = new InProcessBus();
    const got: unknown[] = [];
    await bus.subscribe('a', (m) => got.push(['first', m]));
    await bus.subscribe('a', (m) => got.push(['second', m]));
    await bus.subscribe('b', (m) => got.push(['other', m]));
    const message = { when: new Date(0), n: 1 };
    await bus.publish('a', message);
    expect(got).toEqual([]); // not synchronously
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([
      ['first', { when: '1970-01-01T00:00:00.000Z', n: 1 }],
      ['second', { when: '1970-01-01T00:00:00.000Z', n: 1 }],
    ]);
  });

  it('stops delivering after unsubscribe and close', async () => {
    const bus = new InProcessBus();
    const got: unknown[] = [];
    const off = await bus.subscribe('a', (m) => got.push(m));
    await off();
    await bus.publish('a', 1);
    await bus.subscribe('a', (m) => got.push(m));
    await bus.close();
    await bus.publish('a', 2);
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([]);
  });

  it('tells the publisher whether anybody received the message (0 or this one process)', async () => {
    const bus = new InProcessBus();
    expect(await bus.publish('a', 1)).toBe(0);
    const off = await bus.subscribe('a', () => undefined);
    await bus.subscribe('a', () => undefined);
    expect(await bus.publish('a', 1)).toBe(1);
    expect(await bus.publish('b', 1)).toBe(0);
    await off();
    expect(await bus.publish('a', 1)).toBe(1);
  });
});
