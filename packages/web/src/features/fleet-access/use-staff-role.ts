import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../lib/get-session';
import { sessionClaimsQueryOptions } from '../../lib/get-session-claims';
import { platformStaffRole, type PlatformStaffRole } from '../../lib/session-claims';

/** The caller's platform staff role (null for everybody else); undefined while the claims load. */
export function useStaffRole(): PlatformStaffRole | null | undefined {
  const session = useSession();
  const claims = useQuery(sessionClaimsQueryOptions(session.data?.id));
  if (!claims.isSuccess) return claims.isError ? null : undefined;
  return platformStaffRole(claims.data);
}
