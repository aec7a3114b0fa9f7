import { useMutation } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export type InvitationKind = 'organization' | 'fleet';

export interface AcceptedInvitation {
  kind: InvitationKind;
  /** The organization's or fleet's name, when the server says. */
  name: string | undefined;
}

/**
 * POST /org/v1/invitation/{token} → {organization: {id, name}}, or for a fleet invite
 * POST /user/v1/invitation/{token} → {application: {id, app_name}}. sdk.request rather than
 * `sdk.models.*.invite.accept`, which drop the body (the name for the toast).
 * 403: sent to another e-mail address; 404: unknown or used; 400: expired.
 */
export async function acceptInvitation({ kind, token }: { kind: InvitationKind; token: string }): Promise<AcceptedInvitation> {
  const url = `${kind === 'organization' ? '/org/v1/invitation/' : '/user/v1/invitation/'}${encodeURIComponent(token)}`;
  const res = await sdk.request.send<{ organization?: { name?: string }; application?: { app_name?: string } }>({
    method: 'POST',
    url,
    baseUrl: window.location.origin,
  });
  const body = res.body ?? {};
  return { kind, name: kind === 'organization' ? body.organization?.name : body.application?.app_name };
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
