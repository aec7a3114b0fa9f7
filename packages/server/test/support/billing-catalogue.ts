import { DEFAULT_CATALOGUE } from '@flotilla/model';
import type { Db } from '../../src/infra/db/db.js';

/**
 * Test arrangement for billing tests that need plans: the model's DEFAULT_CATALOGUE as
 * `feature`, `plan`, `plan_feature` and `plan_addon` rows (rows already there, e.g. seeded by
 * the server at start, are kept), and an organization put on a plan by code.
 */
export async function seedDefaultCatalogue(db: Db): Promise<void> {
  for (const f of DEFAULT_CATALOGUE.features) {
    await db.query('INSERT INTO feature (slug, title, billing_code) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING', [f.slug, f.title, f.billingCode ?? null]);
  }
  for (const [position, p] of DEFAULT_CATALOGUE.plans.entries()) {
    await db.query(
      `INSERT INTO plan (billing_code, title, monthly_price, annual_price, can_self_serve, support_tier, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (billing_code) DO NOTHING`,
      [p.code, p.title, p.monthlyPrice, p.annualPrice, p.canSelfServe, p.supportTier, position],
    );
    for (const [slug, quantity] of Object.entries(p.includes)) {
      await db.query(
        `INSERT INTO plan_feature (plan, feature, quantity) SELECT p.id, f.id, $3 FROM plan p, feature f WHERE p.billing_code = $1 AND f.slug = $2
         ON CONFLICT (plan, feature) DO NOTHING`,
        [p.code, slug, quantity],
      );
    }
    for (const [slug, price] of Object.entries(p.addons)) {
      await db.query(
        `INSERT INTO plan_addon (plan, feature, base_price) SELECT p.id, f.id, $3 FROM plan p, feature f WHERE p.billing_code = $1 AND f.slug = $2
         ON CONFLICT (plan, feature) DO NOTHING`,
        [p.code, slug, price],
      );
    }
  }
}

/** Puts organization `orgId` on plan `code` (its only active subscription). */
export async function subscribe(db: Db, orgId: number, code: string): Promise<void> {
  await db.query('UPDATE subscription SET is_active = false, ends_on__date = now() WHERE is_for__organization = $1 AND is_active', [orgId]);
  await db.query(`INSERT INTO subscription (is_for__organization, is_for__plan, origin) SELECT $1, id, 'admin' FROM plan WHERE billing_code = $2`, [orgId, code]);
}

export async function featureId(db: Db, slug: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM feature WHERE slug = $1', [slug]);
  if (!rows[0]) throw new Error(`no feature ${slug}`);
  return rows[0].id;
}
