/**
 * Leading-edge debounce (spec 1 §5: "a verification request is debounced 300 ms"): the first
 * call runs at once; calls within `ms` of the previous call are dropped, so a double click
 * sends one request.
 */
export function debounceLeading<A extends unknown[]>(fn: (...args: A) => void, ms: number, now: () => number = Date.now): (...args: A) => boolean {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    const quiet = t - last >= ms;
    last = t;
    if (quiet) fn(...args);
    return quiet;
  };
}
