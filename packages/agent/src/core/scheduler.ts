/**
 * One timer for every device in the process. Ten thousand simulated devices each with a
 * poll timer, a report timer and a progress timer would be 30,000 live `setTimeout`s and a
 * storm of wake-ups; instead every pending task sits in one binary min-heap ordered by due
 * time and a single timer is armed for the earliest one.
 */

export interface Task {
  at: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

export type Clock = () => number;

export class Scheduler {
  private heap: Task[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private stopped = false;

  /** `autoRun: false` leaves the loop to `runDue` (unit tests drive it with a fake clock). */
  constructor(
    readonly now: Clock = Date.now,
    private readonly autoRun = true,
    /** Tasks run per turn before yielding to I/O, so a burst of due tasks cannot starve sockets. */
    private readonly batch = 500,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** Runs `run` at `at` (ms since epoch on this scheduler's clock); returns a cancellable task. */
  at(at: number, run: () => void): Task {
    const task: Task = { at, seq: this.seq++, run, cancelled: false };
    this.push(task);
    if (this.autoRun && !this.stopped && at < this.timerAt) this.arm();
    return task;
  }

  after(delayMs: number, run: () => void): Task {
    return this.at(this.now() + Math.max(0, delayMs), run);
  }

  cancel(task: Task | null | undefined): void {
    if (task) task.cancelled = true;
  }

  /** Runs every task due at `now` (at most `limit`); returns how many ran. */
  runDue(now = this.now(), limit = Infinity): number {
    let ran = 0;
    while (ran < limit) {
      const top = this.heap[0];
      if (top === undefined || top.at > now) break;
      this.pop();
      if (top.cancelled) continue;
      ran++;
      try {
        top.run();
      } catch (err) {
        // A task's bug must not stop the loop that drives every other device.
        console.error('[flotilla-agent] scheduled task failed:', err);
      }
    }
    return ran;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.heap = [];
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    const top = this.heap[0];
    if (top === undefined) {
      this.timer = null;
      this.timerAt = Infinity;
      return;
    }
    this.timerAt = top.at;
    // setTimeout's delay is a 32-bit int; far tasks re-arm when the timer fires early.
    const delay = Math.min(Math.max(0, top.at - this.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => this.tick(), delay);
  }

  private tick(): void {
    this.timer = null;
    this.timerAt = Infinity;
    if (this.stopped) return;
    const ran = this.runDue(this.now(), this.batch);
    if (this.stopped) return;
    if (ran >= this.batch && this.heap[0] !== undefined && this.heap[0].at <= this.now()) {
      this.timerAt = -Infinity;
      setImmediate(() => {
        this.timerAt = Infinity;
        this.tick();
      });
      return;
    }
    this.arm();
  }

  private push(task: Task): void {
    const h = this.heap;
    h.push(task);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private pop(): Task | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last !== undefined) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && less(h[l]!, h[m]!)) m = l;
        if (r < h.length && less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

function less(a: Task, b: Task): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
