/** The result of a measurement that may fail without stopping the run. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

export async function attempt<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export function skipped<T>(reason: string): Outcome<T> {
  return { ok: false, error: `not run: ${reason}` };
}
