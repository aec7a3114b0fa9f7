import { LAST_ADMINISTRATOR_RULE } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError } from '../../infra/errors.js';

/**
 * Rule (spec 1 §6, §8): an organization keeps at least one administrator. Deleting, or
 * demoting through PATCH, the memberships `ids` must leave every organization that had an
 * administrator among them with another one; else 400 with balena's text of the rule
 * (`LAST_ADMINISTRATOR_RULE`; the dashboard shows the spec's `cannot_delete_last_organization_admin`).
 * (Deleting the organization itself removes its memberships without this check.)
 */
export async function protectLastAdministrator(db: Db, ids: readonly number[], newRoleId?: unknown): Promise<void> {
  if (ids.length === 0) return;
  if (newRoleId !== undefined) {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM organization_membership_role WHERE id = $1', [newRoleId]);
    if (rows[0]?.name === 'administrator') return; // promoting (or keeping) administrators
  }
  // Lock the organizations concerned so that two concurrent removals of their two last
  // administrators cannot both succeed.
  await db.query(
    `SELECT o.id FROM organization o
      WHERE o.id IN (SELECT is_member_of__organization FROM organization_membership WHERE id = ANY($1))
      ORDER BY o.id FOR UPDATE`,
    [ids],
  );
  const { rowCount } = await db.query(
    `WITH admin AS (
       SELECT m.id, m.is_member_of__organization AS org FROM organization_membership m
         JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator')
     SELECT 1 FROM admin a
      WHERE a.id = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM admin b WHERE b.org = a.org AND NOT (b.id = ANY($1)))`,
    [ids],
  );
  if (rowCount > 0) throw new BadRequestError(LAST_ADMINISTRATOR_RULE);
}
