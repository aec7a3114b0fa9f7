import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  announcementDismissalKey,
  isAnnouncementActive,
  pollStatus,
  scheduleAnnouncement,
  watchBuildTime,
  type Announcement,
  type FocusSource,
} from './timing';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

/** A window stand-in for the focus event. */
function focusSource(): FocusSource & { fire(): void; count(): number } {
  const listeners = new Set<() => void>();
  return {
    addEventListener: (_type, l) => listeners.add(l),
    removeEventListener: (_type, l) => listeners.delete(l),
    fire: () => listeners.forEach((l) => l()),
    count: () => listeners.size,
  };
}

describe('watchBuildTime (spec 3 §9: every 600000 ms)', () => {
  it('reads the stamp at load, again every 10 minutes, and reports a new build once', async () => {
    let served = '2026-11-25T10:00:00Z';
    const read = vi.fn(async () => `${served}\n`);
    const onNewBuild = vi.fn();
    watchBuildTime({ read, onNewBuild });
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(599_999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    expect(onNewBuild).not.toHaveBeenCalled();
    served = '2026-11-25T12:05:00Z';
    await vi.advanceTimersByTimeAsync(600_000);
    expect(onNewBuild).toHaveBeenCalledExactlyOnceWith('2026-11-25T12:05:00Z');
    // The watch is over: no more reads.
    await vi.advanceTimersByTimeAsync(3 * 600_000);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it('skips failed reads and takes the first answer as the loaded build', async () => {
    const answers = [Promise.reject(new Error('offline')), Promise.resolve('A'), Promise.resolve('A'), Promise.resolve('B')];
    const read = vi.fn(() => answers.shift()!);
    const onNewBuild = vi.fn();
    watchBuildTime({ read, onNewBuild });
    await vi.advanceTimersByTimeAsync(2 * 600_000);
    expect(onNewBuild).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(onNewBuild).toHaveBeenCalledWith('B');
  });

  it('reads on window focus only once the interval has passed since the last read', async () => {
    const read = vi.fn(async () => 'A');
    const focus = focusSource();
    const stop = watchBuildTime({ read, onNewBuild: vi.fn(), focus });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(300_000);
    focus.fire();
    expect(read).toHaveBeenCalledTimes(1);
    // A laptop asleep past the interval: timers did not run, the clock moved on.
    vi.setSystemTime(Date.now() + 600_000);
    focus.fire();
    expect(read).toHaveBeenCalledTimes(2);
    // The poll restarts from that read.
    await vi.advanceTimersByTimeAsync(599_000);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(read).toHaveBeenCalledTimes(3);
    stop();
    expect(focus.count()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(read).toHaveBeenCalledTimes(3);
  });
});

describe('pollStatus (spec 3 §9: indicator after 3000 ms, summary every 60 s)', () => {
  it('first reads after 3 s, then every 60 s, passing failures on as undefined', async () => {
    const results: (string | undefined)[] = [];
    let fail = false;
    const read = vi.fn(async () => {
      if (fail) throw new Error('down');
      return 'ok';
    });
    const stop = pollStatus({ read, onStatus: (s) => results.push(s) });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(read).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(results).toEqual(['ok']);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(read).toHaveBeenCalledTimes(1);
    fail = true;
    await vi.advanceTimersByTimeAsync(1);
    expect(results).toEqual(['ok', undefined]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(read).toHaveBeenCalledTimes(4);
    stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(read).toHaveBeenCalledTimes(4);
  });

  it('stopped before the first check, never reads', async () => {
    const read = vi.fn(async () => 'ok');
    pollStatus({ read, onStatus: vi.fn() })();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(read).not.toHaveBeenCalled();
  });
});

describe('the announcement (spec 3 §4: 4 seconds after load, inside its window, until dismissed)', () => {
  const window: Announcement = { text: 'Maintenance', from: '2026-11-21T00:00:00Z', until: '2026-11-29T00:00:00Z', url: null };

  it('is active from its start (inclusive) until its end (exclusive); open ends are open', () => {
    expect(isAnnouncementActive(window, Date.parse('2026-11-20T23:59:59Z'))).toBe(false);
    expect(isAnnouncementActive(window, Date.parse('2026-11-21T00:00:00Z'))).toBe(true);
    expect(isAnnouncementActive(window, Date.parse('2026-11-28T23:59:59Z'))).toBe(true);
    expect(isAnnouncementActive(window, Date.parse('2026-11-29T00:00:00Z'))).toBe(false);
    expect(isAnnouncementActive({ ...window, from: null, until: null }, 0)).toBe(true);
  });

  it('shows 4 s after load inside the window, and hides when the window closes', async () => {
    const onChange = vi.fn();
    scheduleAnnouncement({ announcement: { ...window, until: '2026-11-25T12:10:00Z' }, onChange });
    await vi.advanceTimersByTimeAsync(3_999);
    expect(onChange).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onChange).toHaveBeenLastCalledWith(true);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(onChange).toHaveBeenLastCalledWith(false);
  });

  it('shows when the window opens while the page is open; never outside it', async () => {
    const later = vi.fn();
    scheduleAnnouncement({ announcement: { ...window, from: '2026-11-25T13:00:00Z' }, onChange: later });
    await vi.advanceTimersByTimeAsync(60 * 60_000 - 1);
    expect(later).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(later).toHaveBeenLastCalledWith(true);

    const over = vi.fn();
    scheduleAnnouncement({ announcement: { ...window, until: '2026-11-25T11:00:00Z' }, onChange: over });
    const endsDuringDelay = vi.fn();
    scheduleAnnouncement({ announcement: { ...window, until: '2026-11-25T12:00:02Z' }, onChange: endsDuringDelay });
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(over).not.toHaveBeenCalled();
    expect(endsDuringDelay).not.toHaveBeenCalledWith(true);
  });

  it('is remembered as dismissed per text and window', () => {
    const key = announcementDismissalKey(window);
    expect(key).toMatch(/^flotilla\.announcementDismissed\.[0-9a-z]+$/);
    expect(announcementDismissalKey({ ...window, url: 'https://example.com' })).toBe(key);
    expect(announcementDismissalKey({ ...window, text: 'Maintenance again' })).not.toBe(key);
    expect(announcementDismissalKey({ ...window, until: '2026-12-01T00:00:00Z' })).not.toBe(key);
  });
});
