import { EMPTY_BODY } from '../../infra/http/schemas.js';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { requireUser } from '../../infra/http/guards.js';
import { acceptInvitation } from './accept-invitation.js';
import { FLEET_INVITE, ORGANIZATION_INVITE, type InvitationKind } from './invitation-kinds.js';

/**
 * Accepting invitations (dialect §2.5; balena-sdk `organization.invite.accept` and
 * `application.invite.accept`): `POST /org/v1/invitation/:token` and
 * `POST /user/v1/invitation/:token`, signed-in users only. 200 with the organization or
 * fleet joined, so the dashboard can navigate there.
 */
export async function invitationRoutes(
  app: FastifyInstance,
  { db, checkFleetRole }: { db: Db; checkFleetRole?: ((tx: Db, fleetId: number, roleId: number) => Promise<void>) | undefined },
): Promise<void> {
  const params = {
    type: 'object',
    required: ['token'],
    properties: { token: { type: 'string', minLength: 1, maxLength: 200 } },
  } as const;
  const accepted = (kind: InvitationKind) =>
    kind.kind === 'organization'
      ? {
          type: 'object',
          required: ['organization'],
          properties: {
            organization: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
          },
        }
      : {
          type: 'object',
          required: ['application'],
          properties: {
            application: { type: 'object', required: ['id', 'app_name'], properties: { id: { type: 'integer' }, app_name: { type: 'string' } } },
          },
        };

  for (const [url, kind] of [
    ['/org/v1/invitation/:token', ORGANIZATION_INVITE],
    ['/user/v1/invitation/:token', FLEET_INVITE],
  ] as const) {
    app.post<{ Params: { token: string } }>(url, { schema: { params, body: EMPTY_BODY, response: { 200: accepted(kind) } }, config: { audit: { action: 'invitation.accept' } } }, async (request) => {
      const user = requireUser(request);
      const result = await acceptInvitation(db, kind, user.userId, request.params.token, checkFleetRole);
      // The audit log names the organization or fleet joined (the token names no row).
      request.auditTargets = ['organization' in result ? { resource: 'organization', ids: [result.organization.id] } : { resource: 'application', ids: [result.application.id] }];
      return result;
    });
  }
}
