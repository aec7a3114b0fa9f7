/**
 * The two kinds of invitation, described once so each rule is written once: an
 * organization invite (accept link /organization/invitation/{token}) and a fleet invite
 * (/invitation/{token}); spec 1 §2 routes, dialect §2.5.
 */
export interface InvitationKind {
  kind: 'organization' | 'fleet';
  /** The invite resource (also its table). */
  resource: 'invitee__is_invited_to__organization' | 'invitee__is_invited_to__application';
  /** Foreign key of the invite to what it invites to. */
  target: 'is_invited_to__organization' | 'is_invited_to__application';
  /** Foreign key of the invite to the role the invitee gets. */
  role: 'organization_membership_role' | 'application_membership_role';
  /** Dashboard path that accepts the invitation, before the token. */
  acceptPath: string;
}

export const ORGANIZATION_INVITE: InvitationKind = {
  kind: 'organization',
  resource: 'invitee__is_invited_to__organization',
  target: 'is_invited_to__organization',
  role: 'organization_membership_role',
  acceptPath: '/organization/invitation/',
};

export const FLEET_INVITE: InvitationKind = {
  kind: 'fleet',
  resource: 'invitee__is_invited_to__application',
  target: 'is_invited_to__application',
  role: 'application_membership_role',
  acceptPath: '/invitation/',
};
