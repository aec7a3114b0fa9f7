import type { Db } from '../../../infra/db/db.js';
import type { BillingCustomer, BillingInfo } from './provider.js';

/** The billing account's payment method display and address (null = none set up). */
export async function selectBillingInfo(db: Db, organization: number): Promise<BillingInfo | null> {
  const { rows } = await db.query<{ billing_info: BillingInfo | null }>('SELECT billing_info FROM billing_account WHERE organization = $1', [organization]);
  return rows[0]?.billing_info ?? null;
}

export async function upsertBillingInfo(db: Db, organization: number, provider: string, info: BillingInfo): Promise<void> {
  await db.query(
    `INSERT INTO billing_account (organization, provider, billing_info) VALUES ($1, $2, $3)
     ON CONFLICT (organization) DO UPDATE SET provider = EXCLUDED.provider, billing_info = EXCLUDED.billing_info, updated_at = now()`,
    [organization, provider, info],
  );
}

export async function deleteBillingInfo(db: Db, organization: number): Promise<void> {
  await db.query('UPDATE billing_account SET billing_info = NULL, updated_at = now() WHERE organization = $1', [organization]);
}

/** The organization as a provider's customer: its billing email (else its first administrator's) and company name. */
export async function selectBillingCustomer(db: Db, organization: number): Promise<BillingCustomer | undefined> {
  const { rows } = await db.query<{ company_name: string | null; email: string | null }>(
    `SELECT o.company_name,
            COALESCE(b.email, (SELECT u.email FROM organization_membership m
                                 JOIN organization_membership_role r ON r.id = m.organization_membership_role AND r.name = 'administrator'
                                 JOIN "user" u ON u.id = m."user"
                                WHERE m.is_member_of__organization = o.id ORDER BY m.id LIMIT 1)) AS email
       FROM organization o LEFT JOIN billing_account b ON b.organization = o.id
      WHERE o.id = $1`,
    [organization],
  );
  const row = rows[0];
  return row ? { organizationId: organization, email: row.email, companyName: row.company_name } : undefined;
}
