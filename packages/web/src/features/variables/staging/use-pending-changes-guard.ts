import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/** Spec 2 §2: the text of the leave-page warning. */
export const LEAVE_WARNING = 'changes not saved, click OK to proceed';

/**
 * While `hasChanges`, leaving the page warns (spec 2 §2, §4): in-app navigation asks with the
 * browser's confirm ('changes not saved, click OK to proceed'; Cancel stays), and closing or
 * reloading the tab gets the browser's own `beforeunload` prompt.
 */
export function usePendingChangesGuard(hasChanges: boolean): void {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => hasChanges && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(LEAVE_WARNING)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

  useEffect(() => {
    if (!hasChanges) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = LEAVE_WARNING;
      return LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [hasChanges]);
}
