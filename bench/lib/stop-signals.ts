import { progress } from './phases.js';

/**
 * Ctrl-C (SIGINT) or SIGTERM: runs `cleanup` once, then exits 130.
 *
 * Ctrl-C signals the whole process group (npm, its shell, this process and the children), and
 * npm passes a signal on again: a repeat must not end this process before `cleanup` has stopped
 * what it started, so the handlers stay and repeats only say so. Nor may writing to an output
 * whose reader has gone (npm exits first): EPIPE on stdout and stderr is ignored. (Libraries
 * must not exit on the signal either: Playwright's launch is told not to, see browser.ts.)
 */
export function stopOnSignals(cleanup: () => Promise<unknown>, what: string): void {
  for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      progress(`${signal} — ${stopping ? 'still stopping' : 'stopping'} ${what}`);
      if (stopping) return;
      stopping = true;
      void cleanup().finally(() => process.exit(130));
    });
  }
}
