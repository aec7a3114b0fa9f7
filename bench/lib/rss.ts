import { readFileSync } from 'node:fs';

/** Resident set size of a process in MB, from /proc/<pid>/status (Linux only). */
export function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Samples a process's RSS at a fixed interval and keeps the peak. */
export class RssSampler {
  #timer: NodeJS.Timeout | undefined;
  #peakMb = 0;
  #samples = 0;

  constructor(
    private readonly pid: number,
    private readonly intervalMs: number,
  ) {}

  start(): this {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), this.intervalMs);
    return this;
  }

  /** Stops sampling and returns the peak seen (one last sample included). */
  stop(): { peakMb: number; samples: number } {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#sample();
    return { peakMb: this.#peakMb, samples: this.#samples };
  }

  #sample(): void {
    try {
      this.#peakMb = Math.max(this.#peakMb, readRssMb(this.pid));
      this.#samples++;
    } catch {
      // The process is gone; the load phase will report the failure.
    }
  }
}
