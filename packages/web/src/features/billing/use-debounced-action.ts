import { useCallback, useRef } from 'react';

/** Spec 3 §4: the plan-change button is debounced 500 ms. */
export const PLAN_CHANGE_DEBOUNCE_MS = 500;

/**
 * A click runs the action at once; further clicks within `ms` of it are ignored (a double
 * click, or a key held down, changes the plan once).
 */
export function useDebouncedAction(action: () => void, ms = PLAN_CHANGE_DEBOUNCE_MS): () => void {
  const last = useRef(0);
  const current = useRef(action);
  current.current = action;
  return useCallback(() => {
    const now = Date.now();
    if (now - last.current < ms) return;
    last.current = now;
    current.current();
  }, [ms]);
}
