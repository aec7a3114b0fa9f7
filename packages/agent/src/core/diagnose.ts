import { ACTION_RUN_LIMITS } from '@flotilla/model';
import { fail, ok, type ActionResult } from './actions.js';
import type { DeviceDiagnostics, DeviceRuntimeFacts } from './health-checks.js';

/**
 * The `diagnose` and `health-checks` cloud-link actions (issue 15 item 3): what the device
 * answers the actions service, and the pieces of the diagnose text that are pure (the
 * agent's recent log ring buffer, sections, the size cut). The real facts are gathered by
 * `diagnose-host.ts`, the simulator's by `simulate/simulated-diagnostics.ts`.
 */

/** The agent's own recent log lines, kept for diagnose (a small ring buffer). */
export class RecentLog {
  private readonly lines: string[] = [];
  private next = 0;

  constructor(
    readonly capacity = 200,
    private readonly maxLineChars = 500,
    private readonly clock: () => number = Date.now,
  ) {}

  add(message: string): void {
    const line = `${new Date(this.clock()).toISOString()} ${message.length > this.maxLineChars ? `${message.slice(0, this.maxLineChars)}…` : message}`;
    if (this.lines.length < this.capacity) this.lines.push(line);
    else this.lines[this.next] = line;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Oldest first. */
  snapshot(): string[] {
    if (this.lines.length < this.capacity) return [...this.lines];
    return [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
  }

  /** A log function that records every line and passes it on. */
  tee(log: (message: string) => void): (message: string) => void {
    return (message) => {
      this.add(message);
      log(message);
    };
  }
}

/** Text cut at `max` characters with a note saying how much was left out. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = `\n[… cut: ${text.length - max} more characters not shown]\n`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

/** A titled section of the diagnose text. */
export function section(title: string, lines: string[]): string {
  return `=== ${title} ===\n${lines.length ? lines.join('\n') : '(nothing)'}\n`;
}

/** Columns aligned to their widest cell (containers, interfaces). */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/** Runs `health-checks` or `diagnose` on the device's provider, answered in the supervisor's `{Data, Error}` shape. */
export async function diagnosticAction(action: 'health-checks' | 'diagnose', diagnostics: DeviceDiagnostics | undefined, facts: DeviceRuntimeFacts): Promise<ActionResult> {
  if (!diagnostics) return fail(501, `${action} is not supported by this agent`);
  try {
    if (action === 'health-checks') return ok(await diagnostics.checks(facts));
    const { stdout, stderr } = await diagnostics.diagnose(facts);
    return ok({ stdout: cutText(stdout, ACTION_RUN_LIMITS.maxStdoutChars), stderr: cutText(stderr, ACTION_RUN_LIMITS.maxErrorChars) });
  } catch (err) {
    return fail(500, `${action} failed on the device: ${err instanceof Error ? err.message : String(err)}`);
  }
}
