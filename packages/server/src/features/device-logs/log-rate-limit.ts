/**
 * The per-device write limit (balena's: 15 batches per 10 s): a sliding window of the times
 * of the device's last batches. Kept per server process (decisions.md), bounded by the
 * devices writing in the last window: `sweep` forgets devices whose window is empty.
 */
export class LogRateLimiter {
  private readonly windows = new Map<number, number[]>();

  constructor(
    private readonly maxBatches: number,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /**
   * Takes one batch slot for `deviceId`: 0 when granted, else the milliseconds until the
   * oldest batch of the window leaves it (nothing is taken).
   */
  take(deviceId: number): number {
    const now = this.clock();
    let times = this.windows.get(deviceId);
    if (!times) this.windows.set(deviceId, (times = []));
    while (times.length > 0 && times[0]! <= now - this.windowMs) times.shift();
    if (times.length >= this.maxBatches) return times[0]! + this.windowMs - now;
    times.push(now);
    return 0;
  }

  /** Forgets devices with no batch in the window (called periodically). */
  sweep(): void {
    const since = this.clock() - this.windowMs;
    for (const [id, times] of this.windows) if ((times.at(-1) ?? 0) <= since) this.windows.delete(id);
  }

  get size(): number {
    return this.windows.size;
  }
}
