import { describe, expect, it } from 'vitest';
import { Scheduler } from './scheduler.js';

describe('the shared scheduler', () => {
  it('runs due tasks in time order, ties in insertion order, and leaves later ones', () => {
    let now = 0;
    const s = new Scheduler(() => now, false);
    const ran: string[] = [];
    for (const [at, name] of [[30, 'c'], [10, 'a'], [20, 'b1'], [20, 'b2'], [50, 'late']] as const) s.at(at, () => ran.push(name));
    now = 40;
    expect(s.runDue()).toBe(4);
    expect(ran).toEqual(['a', 'b1', 'b2', 'c']);
    expect(s.size).toBe(1);
  });

  it('skips cancelled tasks and runs tasks scheduled by tasks when due', () => {
    let now = 0;
    const s = new Scheduler(() => now, false);
    const ran: string[] = [];
    const t = s.at(5, () => ran.push('cancelled'));
    s.at(5, () => {
      ran.push('first');
      s.after(0, () => ran.push('chained'));
    });
    s.cancel(t);
    now = 5;
    s.runDue();
    expect(ran).toEqual(['first', 'chained']);
  });

  it('keeps heap order over many random insertions', () => {
    const s = new Scheduler(() => 0, false);
    const ats: number[] = [];
    const seen: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const at = Math.floor(Math.random() * 10_000);
      ats.push(at);
      s.at(at, () => seen.push(at));
    }
    s.runDue(10_000);
    expect(seen).toEqual([...ats].sort((a, b) => a - b));
  });

  it('honours a run limit so a burst yields to I/O', () => {
    const s = new Scheduler(() => 0, false);
    for (let i = 0; i < 10; i++) s.at(0, () => {});
    expect(s.runDue(0, 4)).toBe(4);
    expect(s.size).toBe(6);
  });

  it('with its own timer, fires a task at its time', async () => {
    const s = new Scheduler();
    const fired = await new Promise<boolean>((resolve) => {
      s.after(60_000, () => resolve(false));
      s.after(5, () => resolve(true));
    });
    s.stop();
    expect(fired).toBe(true);
  });
});
