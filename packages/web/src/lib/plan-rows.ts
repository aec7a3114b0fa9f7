/** Plan rows as pine returns them (issue 18): one reading for the billing page and the plan limits. */

/** A feature as pine returns it `$expand`ed (an array of one; a single object in some answers). */
type FeatureRef = ReadonlyArray<{ slug: string }> | { slug: string };

/** The part of a `plan` row with its features and add-ons `$expand`ed (slugs). */
export interface PlanFeatureRows {
  plan_feature: ReadonlyArray<{ quantity: number; feature: FeatureRef }>;
  plan_addon: ReadonlyArray<{ base_price: number; feature: FeatureRef }>;
}

const slugOf = (feature: FeatureRef) => ('slug' in feature ? feature.slug : feature[0]?.slug);

/** What a plan row includes (slug → quantity) and sells per unit (slug → cents per month). */
export function planFeatureMaps(row: PlanFeatureRows): { includes: Record<string, number>; addons: Record<string, number> } {
  const includes: Record<string, number> = {};
  for (const f of row.plan_feature) {
    const slug = slugOf(f.feature);
    if (slug) includes[slug] = f.quantity;
  }
  const addons: Record<string, number> = {};
  for (const a of row.plan_addon) {
    const slug = slugOf(a.feature);
    if (slug) addons[slug] = a.base_price;
  }
  return { includes, addons };
}
