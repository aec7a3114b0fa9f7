import type { Db } from '../../../infra/db/db.js';
import type { BillingCustomer, BillingInfo } from './provider.js';

/** The billing account's payment method display and address (null = none set up). */
export async function selectBillingInfo(db: Db, organization: number): Promise<BillingInfo | null> {
  const { rows } = await db.query<{ billing_info: BillingInfo | null }>('SELECT billing_info FROM billing_account WHERE organization = $1', [organization]);
  return rows[0]?.billing_info ?? null;
}

/** Records the payment method (its display and address, and the provider's id of it when there is one). */
export async function upsertBillingInfo(db: Db, organization: number, provider: string, info: BillingInfo, paymentMethodId: string | null = null): Promise<void> {
  await db.query(
    `INSERT INTO billing_account (organization, provider, billing_info, provider_payment_method_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization) DO UPDATE SET provider = EXCLUDED.provider, billing_info = EXCLUDED.billing_info,
       provider_payment_method_id = EXCLUDED.provider_payment_method_id, updated_at = now()`,
    [organization, provider, info, paymentMethodId],
  );
}

export async function deleteBillingInfo(db: Db, organization: number): Promise<void> {
  await db.query('UPDATE billing_account SET billing_info = NULL, provider_payment_method_id = NULL, updated_at = now() WHERE organization = $1', [organization]);
}

/** The provider's ids of the organization's customer and payment method (Stripe `cus_…`, `pm_…`). */
export async function selectProviderIds(db: Db, organization: number): Promise<{ customerId: string | null; paymentMethodId: string | null }> {
  const { rows } = await db.query<{ provider_customer_id: string | null; provider_payment_method_id: string | null }>(
    'SELECT provider_customer_id, provider_payment_method_id FROM billing_account WHERE organization = $1',
    [organization],
  );
  return { customerId: rows[0]?.provider_customer_id ?? null, paymentMethodId: rows[0]?.provider_payment_method_id ?? null };
}

export async function saveProviderCustomerId(db: Db, organization: number, customerId: string): Promise<void> {
  await db.query(
    `INSERT INTO billing_account (organization, provider_customer_id) VALUES ($1, $2)
     ON CONFLICT (organization) DO UPDATE SET provider_customer_id = EXCLUDED.provider_customer_id, updated_at = now()`,
    [organization, customerId],
  );
}

export interface BillingAccountRow {
  email: string | null;
  cc_emails: string[];
  account_state: string;
  company_name: string | null;
  billing_info: BillingInfo | null;
}

/** The billing account as `GET /billing/v1/account/{org}` shows it (defaults when none was written yet). */
export async function selectBillingAccount(db: Db, organization: number): Promise<BillingAccountRow | undefined> {
  const { rows } = await db.query<BillingAccountRow>(
    `SELECT b.email, COALESCE(b.cc_emails, '{}') AS cc_emails, COALESCE(b.account_state, 'active') AS account_state, o.company_name, b.billing_info
       FROM organization o LEFT JOIN billing_account b ON b.organization = o.id WHERE o.id = $1`,
    [organization],
  );
  return rows[0];
}

export async function upsertBillingAccountContacts(db: Db, organization: number, email: string, ccEmails: readonly string[]): Promise<void> {
  await db.query(
    `INSERT INTO billing_account (organization, email, cc_emails) VALUES ($1, $2, $3)
     ON CONFLICT (organization) DO UPDATE SET email = EXCLUDED.email, cc_emails = EXCLUDED.cc_emails, updated_at = now()`,
    [organization, email, ccEmails],
  );
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

/** Where billing mail goes: the billing email (else the first administrator's) and the cc list. */
export async function selectBillingContacts(db: Db, organization: number): Promise<string[]> {
  const customer = await selectBillingCustomer(db, organization);
  const { rows } = await db.query<{ cc_emails: string[] }>('SELECT cc_emails FROM billing_account WHERE organization = $1', [organization]);
  return [...(customer?.email ? [customer.email] : []), ...(rows[0]?.cc_emails ?? [])];
}
