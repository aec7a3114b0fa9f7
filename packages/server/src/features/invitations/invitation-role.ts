import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';
import type { InvitationKind } from './invitation-kinds.js';
import type { HookBody } from '../../infra/odata/index.js';
import { roleIdByName } from './invitation.repository.js';

/**
 * Rule (spec 1 §3, §5): an invite carries a role. balena-sdk 23 sends the role's id
 * (`organization_membership_role` / `application_membership_role`, looked up from its
 * `roleName`); the dashboard may send `roleName` itself, which is translated here. With
 * neither, the model's default role applies (balena's: member / developer).
 */
export async function resolveInvitationRole(db: Db, kind: InvitationKind, body: HookBody<InvitationKind['resource'], 'POST'>): Promise<void> {
  if ('roleName' in body) {
    const { roleName } = body;
    delete body.roleName;
    if (roleName !== undefined && roleName !== null) {
      if (typeof roleName !== 'string') throw new BadRequestError('roleName must be a string');
      const id = await roleIdByName(db, kind, roleName);
      if (id === undefined) throw new BadRequestError(`No ${kind.kind} role named '${roleName}'`);
      if (body[kind.role] !== undefined && body[kind.role] !== null && body[kind.role] !== id) {
        throw new BadRequestError(`roleName and ${kind.role} name different roles`);
      }
      body[kind.role] = id;
    }
  }
}
