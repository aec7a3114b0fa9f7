import { readFileSync } from 'node:fs';
import { FREE_PLAN_CODE, type Catalogue } from '@flotilla/model';
import { z } from 'zod';
import { ConfigError } from '../../../infra/config/config.js';

/**
 * FLOTILLA_PLANS_FILE (docs/billing.md "Operator's plans file"): a JSON file of the model's
 * `Catalogue` shape. A bad file stops the server with a message naming the file and each bad
 * field (`plans.2.monthlyPrice: …`).
 */
const cents = z.number().int().min(0).max(1_000_000_000);
const slug = z.string().min(1).max(255).regex(/^[a-z0-9][a-z0-9:._-]*$/, 'must be lowercase letters, digits and : . _ -');
const date = z.string().max(64).refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO date').nullable().optional();

const planSchema = z.object({
  code: z.string().min(1).max(255).regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a billing code such as pilot-v2'),
  title: z.string().min(1).max(255),
  description: z.string().max(2000).optional(),
  monthlyPrice: cents,
  annualPrice: cents,
  canSelfServe: z.boolean(),
  isLegacy: z.boolean().optional(),
  validFrom: date,
  validUntil: date,
  supportTier: z.string().min(1).max(255),
  includes: z.record(slug, z.number().int().min(0).max(100_000_000)),
  addons: z.record(slug, cents),
}).strict();

const catalogueSchema = z
  .object({
    features: z.array(z.object({ slug, title: z.string().min(1).max(255), billingCode: z.string().min(1).max(255).optional() }).strict()).min(1).max(1000),
    plans: z.array(planSchema).min(1).max(200),
    seller: z
      .object({
        name: z.string().min(1).max(255),
        address: z.array(z.string().max(255)).max(10),
        email: z.string().email().optional(),
        vatNumber: z.string().max(64).optional(),
        agreementUrl: z.string().url().optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const slugs = new Set(c.features.map((f) => f.slug));
    if (slugs.size !== c.features.length) ctx.addIssue({ code: 'custom', path: ['features'], message: 'feature slugs must be unique' });
    const codes = new Set(c.plans.map((p) => p.code));
    if (codes.size !== c.plans.length) ctx.addIssue({ code: 'custom', path: ['plans'], message: 'plan codes must be unique' });
    if (!codes.has(FREE_PLAN_CODE)) ctx.addIssue({ code: 'custom', path: ['plans'], message: `a plan with code '${FREE_PLAN_CODE}' is needed (every organization starts on it)` });
    c.plans.forEach((p, i) => {
      for (const [kind, map] of [['includes', p.includes], ['addons', p.addons]] as const) {
        for (const s of Object.keys(map)) {
          if (!slugs.has(s)) ctx.addIssue({ code: 'custom', path: ['plans', i, kind, s], message: `names no feature of "features"` });
        }
      }
    });
  });

/** Parses and checks a catalogue (JSON text); throws ConfigError naming `source` and the bad fields. */
export function parseCatalogue(text: string, source: string): Catalogue {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Invalid plans file ${source} (FLOTILLA_PLANS_FILE): not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = catalogueSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(file)'}: ${i.message}`);
    throw new ConfigError(`Invalid plans file ${source} (FLOTILLA_PLANS_FILE):\n${lines.join('\n')}`);
  }
  return parsed.data as Catalogue;
}

/** Reads FLOTILLA_PLANS_FILE. */
export function loadPlansFile(path: string): Catalogue {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`Cannot read the plans file ${path} (FLOTILLA_PLANS_FILE): ${err instanceof Error ? err.message : String(err)}`);
  }
  return parseCatalogue(text, path);
}
