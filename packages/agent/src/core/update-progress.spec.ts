import { describe, expect, it } from 'vitest';
import { deviceStatusFor, nextUpdateEventAt, planUpdate, updateAt } from './update-progress.js';

describe('the update progress machine', () => {
  const plan = planUpdate('old', 'new', 1_000, 10_000, 2_000);

  it('downloads with a percentage, then applies changes, then is done', () => {
    expect(updateAt(plan, 1_000)).toEqual({ phase: 'downloading', progress: 0 });
    expect(updateAt(plan, 3_500)).toEqual({ phase: 'downloading', progress: 25 });
    expect(updateAt(plan, 10_999)).toEqual({ phase: 'downloading', progress: 99 });
    expect(updateAt(plan, 11_000)).toEqual({ phase: 'applying changes', progress: 100 });
    expect(updateAt(plan, 13_000)).toEqual({ phase: 'done', progress: 100 });
  });

  it('never goes backwards as time passes', () => {
    const order = ['downloading', 'applying changes', 'done'];
    let last = { phase: 0, progress: 0 };
    for (let t = 0; t <= 15_000; t += 137) {
      const s = updateAt(plan, t);
      const cur = { phase: order.indexOf(s.phase), progress: s.progress };
      expect(cur.phase > last.phase || (cur.phase === last.phase && cur.progress >= last.progress)).toBe(true);
      last = cur;
    }
  });

  it('schedules the next visible step: each 10 %, the end of download, the end of applying', () => {
    expect(nextUpdateEventAt(plan, 1_000)).toBe(2_000);
    expect(nextUpdateEventAt(plan, 2_000)).toBe(3_000);
    expect(nextUpdateEventAt(plan, 10_500)).toBe(11_000);
    expect(nextUpdateEventAt(plan, 11_500)).toBe(13_000);
    expect(nextUpdateEventAt(plan, 13_000)).toBeNull();
  });

  it('an instant update is done at once', () => {
    expect(updateAt(planUpdate(null, 'x', 0, 0, 0), 0)).toEqual({ phase: 'done', progress: 100 });
  });

  it('maps phases to the device status balena shows', () => {
    expect(deviceStatusFor(null)).toBe('Idle');
    expect(deviceStatusFor({ phase: 'downloading', progress: 3 })).toBe('Downloading');
    expect(deviceStatusFor({ phase: 'applying changes', progress: 100 })).toBe('Updating');
    expect(deviceStatusFor({ phase: 'done', progress: 100 })).toBe('Idle');
  });
});
