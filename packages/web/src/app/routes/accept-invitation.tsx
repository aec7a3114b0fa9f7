import { useParams } from 'react-router';
import type { InvitationKind } from '../../features/invitations/api/accept-invitation';
import { AcceptInvitationPage } from '../../features/invitations/pages/accept-invitation-page';

/** /organization/invitation/{token} and /invitation/{token} (spec 1 §2). */
function AcceptInvitationRoute({ kind }: { kind: InvitationKind }) {
  const { token = '' } = useParams();
  return <AcceptInvitationPage kind={kind} token={token} />;
}

export function AcceptOrganizationInvitationRoute() {
  return <AcceptInvitationRoute kind="organization" />;
}

export function AcceptFleetInvitationRoute() {
  return <AcceptInvitationRoute kind="fleet" />;
}
