import type { Row } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { InvitationKind } from './invitation-kinds.js';

// The invitations feature's SQL: invites of both kinds (their table is `kind.resource`), the
// invitee rows, and the memberships an accepted invite makes.

/** The id of the user whose actor is `actorId`, if the actor is a user. */
export async function userIdOfActor(db: Db, actorId: Row<'actor'>['id'] | null): Promise<Row<'user'>['id'] | undefined> {
  const { rows } = await db.query<Pick<Row<'user'>, 'id'>>('SELECT id FROM "user" WHERE actor = $1', [actorId]);
  return rows[0]?.id;
}

/** The id of the kind's role (organization or fleet membership role) with this name. */
export async function roleIdByName(db: Db, kind: InvitationKind, name: string): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(`SELECT id FROM ${kind.role} WHERE name = $1`, [name]);
  return rows[0]?.id;
}

/** Makes the invitee row of an e-mail address unless one exists (the unique index is case-insensitive). */
export async function insertInvitee(db: Db, email: string): Promise<void> {
  await db.query('INSERT INTO invitee (email) VALUES ($1) ON CONFLICT DO NOTHING', [email]);
}

/** The invitee row of an e-mail address (case-insensitively); the caller made sure it exists. */
export async function inviteeIdByEmail(db: Db, email: string): Promise<Row<'invitee'>['id']> {
  const { rows } = await db.query<Pick<Row<'invitee'>, 'id'>>('SELECT id FROM invitee WHERE lower(email) = lower($1)', [email]);
  return rows[0]!.id;
}

/**
 * Whether a user with the invitee's e-mail (case-insensitively) already is where the invite
 * leads: a member of the organization; for a fleet, a fleet member or an administrator of
 * the fleet's organization.
 */
export async function inviteeIsMember(db: Db, kind: InvitationKind, target: number, inviteeId: number): Promise<boolean> {
  const sql =
    kind.kind === 'organization'
      ? `SELECT 1 FROM organization_membership m JOIN "user" u ON u.id = m."user", invitee e
          WHERE m.is_member_of__organization = $1 AND e.id = $2 AND lower(u.email) = lower(e.email)`
      : `SELECT 1 FROM "user" u, application a, invitee e
          WHERE a.id = $1 AND e.id = $2 AND lower(u.email) = lower(e.email)
            AND (EXISTS (SELECT 1 FROM user_application_membership fm
                          WHERE fm."user" = u.id AND fm.is_member_of__application = a.id)
                 OR EXISTS (SELECT 1 FROM organization_membership m
                              JOIN organization_membership_role r ON r.id = m.organization_membership_role
                             WHERE m."user" = u.id AND m.is_member_of__organization = a.organization
                               AND r.name = 'administrator'))`;
  const { rowCount } = await db.query(sql, [target, inviteeId]);
  return rowCount > 0;
}

/** Serialises, until the transaction ends, the writes of invites of one invitee to one organization or fleet. */
export async function lockInvitesOf(db: Db, kind: InvitationKind, target: number, inviteeId: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${kind.resource}:${target}:${inviteeId}`]);
}

/** The invitee's invites to the organization or fleet other than `exceptId`, and whether each is unexpired. */
export async function otherInvites(
  db: Db,
  kind: InvitationKind,
  target: number,
  inviteeId: number,
  exceptId: number,
): Promise<{ id: number; pending: boolean }[]> {
  const { rows } = await db.query<{ id: number; pending: boolean }>(
    `SELECT id, expiry > now() AS pending FROM ${kind.resource} WHERE ${kind.target} = $1 AND invitee = $2 AND id <> $3`,
    [target, inviteeId, exceptId],
  );
  return rows;
}

export async function deleteInvites(db: Db, kind: InvitationKind, ids: readonly number[]): Promise<void> {
  await db.query(`DELETE FROM ${kind.resource} WHERE id = ANY($1)`, [ids]);
}

export async function deleteInvite(db: Db, kind: InvitationKind, id: number): Promise<void> {
  await db.query(`DELETE FROM ${kind.resource} WHERE id = $1`, [id]);
}

/** What an invitation mail says: the invitee's address, the message, the organization or fleet name, the role and the inviter's name. */
export interface InvitationMailFacts {
  invitee: Row<'invitee'>['email'];
  message: Row<InvitationKind['resource']>['message'];
  /** The organization's name or the fleet's app_name. */
  target: Row<'organization'>['name'] | Row<'application'>['app_name'];
  role: Row<'organization_membership_role' | 'application_membership_role'>['name'];
  /** The inviter's full name, else their username. */
  inviter: string;
}

/** What an invite leads to: the table and the column that names it. */
const TARGETS = { organization: { table: 'organization', name: 'name' }, fleet: { table: 'application', name: 'app_name' } } as const;

export async function invitationMailFacts(db: Db, kind: InvitationKind, inviteId: number): Promise<InvitationMailFacts | undefined> {
  const target = TARGETS[kind.kind];
  const { rows } = await db.query<InvitationMailFacts>(
    `SELECT e.email AS invitee, i.message, x.${target.name} AS target, r.name AS role,
            coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username) AS inviter
       FROM ${kind.resource} i
       JOIN invitee e ON e.id = i.invitee
       JOIN ${target.table} x ON x.id = i.${kind.target}
       JOIN ${kind.role} r ON r.id = i.${kind.role}
       JOIN "user" u ON u.id = i.is_created_by__user
      WHERE i.id = $1`,
    [inviteId],
  );
  return rows[0];
}

/** An invite found by its token, for the user accepting it. */
export interface InviteToAccept {
  id: number;
  /** The organization or fleet. */
  target: number;
  /** The role it gives. */
  role: number;
  /** Whether the invitee's address is the user's e-mail (case-insensitively). */
  mine: boolean;
  expired: boolean;
}

/** The invite with this token hash, locked (FOR UPDATE) for the caller's transaction. */
export async function inviteByTokenHash(tx: Db, kind: InvitationKind, tokenHash: string, userId: number): Promise<InviteToAccept | undefined> {
  const { rows } = await tx.query<InviteToAccept>(
    `SELECT i.id, i.${kind.target} AS target, i.${kind.role} AS role, i.expiry <= now() AS expired,
            EXISTS (SELECT 1 FROM "user" u JOIN invitee e ON e.id = i.invitee WHERE u.id = $2 AND lower(u.email) = lower(e.email)) AS mine
       FROM ${kind.resource} i WHERE i.token_hash = $1
       FOR UPDATE`,
    [tokenHash, userId],
  );
  return rows[0];
}

/** Makes the user a member of the organization with the role, unless they are a member already. */
export async function addOrganizationMember(tx: Db, userId: number, organizationId: number, roleId: number): Promise<void> {
  await tx.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     VALUES ($1, $2, $3)
     ON CONFLICT ("user", is_member_of__organization) DO NOTHING`,
    [userId, organizationId, roleId],
  );
}

/** Makes the user a 'member' of the organization, unless they are a member already. */
export async function addOrganizationMemberIfNone(tx: Db, userId: number, organizationId: number): Promise<void> {
  await tx.query(
    `INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role)
     SELECT $1, $2, r.id FROM organization_membership_role r WHERE r.name = 'member'
     ON CONFLICT ("user", is_member_of__organization) DO NOTHING`,
    [userId, organizationId],
  );
}

/** Makes the user a member of the fleet with the role (a member already gets the role). */
export async function setFleetMembership(tx: Db, userId: number, applicationId: number, roleId: number): Promise<void> {
  await tx.query(
    `INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role)
     VALUES ($1, $2, $3)
     ON CONFLICT ("user", is_member_of__application) DO UPDATE SET application_membership_role = EXCLUDED.application_membership_role`,
    [userId, applicationId, roleId],
  );
}

export async function organizationById(tx: Db, id: number): Promise<Pick<Row<'organization'>, 'id' | 'name'> | undefined> {
  const { rows } = await tx.query<Pick<Row<'organization'>, 'id' | 'name'>>('SELECT id, name FROM organization WHERE id = $1', [id]);
  return rows[0];
}

export async function fleetById(tx: Db, id: number): Promise<Pick<Row<'application'>, 'id' | 'app_name' | 'organization'> | undefined> {
  const { rows } = await tx.query<Pick<Row<'application'>, 'id' | 'app_name' | 'organization'>>(
    'SELECT id, app_name, organization FROM application WHERE id = $1',
    [id],
  );
  return rows[0];
}
