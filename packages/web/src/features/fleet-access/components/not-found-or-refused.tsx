import { lazy, Suspense } from 'react';
import { FullPageSpinner } from '../../../components/full-page-status';
import { RedirectWithError } from '../../../components/redirect-with-error';
import { useStaffRole } from '../use-staff-role';

const SupportAccessRefused = lazy(async () => ({ default: (await import('./support-access-refused')).SupportAccessRefused }));

/**
 * A fleet or device that is missing or unreadable: provider staff see why (issue 19: no
 * support access granted, and how the customer grants it); everyone else is sent to `to`
 * with `message`.
 */
export function NotFoundOrRefused({ kind, to, message }: { kind: 'fleet' | 'device'; to: string; message: string }) {
  const staff = useStaffRole();
  if (staff === undefined) return <FullPageSpinner />;
  if (staff !== null) {
    return (
      <Suspense fallback={<FullPageSpinner />}>
        <SupportAccessRefused kind={kind} />
      </Suspense>
    );
  }
  return <RedirectWithError to={to} message={message} />;
}
