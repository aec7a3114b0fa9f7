-- Issue 18: the billing catalogue (features, plans, what a plan includes and sells per unit)
-- and each organization's subscription (packages/model/src/billing, docs/billing.md). The
-- catalogue is seeded at start from the operator's plans file; the billing service writes
-- subscriptions. Organizations gain the billing fields of spec 3 §3.
CREATE TABLE "feature" (
  "id" serial PRIMARY KEY,
  "title" varchar(255) NOT NULL,
  "slug" varchar(255) NOT NULL,
  "billing_code" varchar(255)
);
ALTER TABLE "feature" ADD CONSTRAINT "feature_slug_key" UNIQUE ("slug");
CREATE TABLE "plan" (
  "id" serial PRIMARY KEY,
  "title" varchar(255) NOT NULL,
  "billing_code" varchar(255) NOT NULL,
  "monthly_price" integer NOT NULL DEFAULT 0,
  "annual_price" integer NOT NULL DEFAULT 0,
  "can_self_serve" boolean NOT NULL DEFAULT false,
  "is_legacy" boolean NOT NULL DEFAULT false,
  "is_valid_from__date" timestamp with time zone,
  "is_valid_until__date" timestamp with time zone,
  "support_tier" varchar(255) NOT NULL DEFAULT 'community',
  "position" integer NOT NULL DEFAULT 0,
  "description" text
);
ALTER TABLE "plan" ADD CONSTRAINT "plan_billing_code_key" UNIQUE ("billing_code");
CREATE TABLE "plan_feature" (
  "id" serial PRIMARY KEY,
  "plan" integer NOT NULL,
  "feature" integer NOT NULL,
  "quantity" integer NOT NULL DEFAULT 1
);
ALTER TABLE "plan_feature" ADD CONSTRAINT "plan_feature_plan_feature_key" UNIQUE ("plan", "feature");
CREATE TABLE "plan_addon" (
  "id" serial PRIMARY KEY,
  "plan" integer NOT NULL,
  "feature" integer NOT NULL,
  "base_price" integer NOT NULL DEFAULT 0,
  "can_self_serve" boolean NOT NULL DEFAULT true,
  "bills_dynamically" boolean NOT NULL DEFAULT true
);
ALTER TABLE "plan_addon" ADD CONSTRAINT "plan_addon_plan_feature_key" UNIQUE ("plan", "feature");
CREATE TABLE "subscription" (
  "id" serial PRIMARY KEY,
  "is_for__organization" integer NOT NULL,
  "is_for__plan" integer NOT NULL,
  "billing_cycle" varchar(255) NOT NULL DEFAULT 'monthly' CHECK ("billing_cycle" IN ('monthly', 'annual')),
  "starts_on__date" timestamp with time zone NOT NULL DEFAULT now(),
  "ends_on__date" timestamp with time zone,
  "current_period_ends_on__date" timestamp with time zone,
  "is_active" boolean NOT NULL DEFAULT true,
  "discount_percentage" double precision NOT NULL DEFAULT 0,
  "origin" varchar(255) NOT NULL DEFAULT 'signup',
  "change_reason" text
);
CREATE INDEX "subscription_is_for__organization_idx" ON "subscription" ("is_for__organization");
ALTER TABLE "plan_feature" ADD CONSTRAINT "plan_feature_plan_fkey" FOREIGN KEY ("plan") REFERENCES "plan" ("id") ON DELETE CASCADE;
ALTER TABLE "plan_feature" ADD CONSTRAINT "plan_feature_feature_fkey" FOREIGN KEY ("feature") REFERENCES "feature" ("id") ON DELETE CASCADE;
ALTER TABLE "plan_addon" ADD CONSTRAINT "plan_addon_plan_fkey" FOREIGN KEY ("plan") REFERENCES "plan" ("id") ON DELETE CASCADE;
ALTER TABLE "plan_addon" ADD CONSTRAINT "plan_addon_feature_fkey" FOREIGN KEY ("feature") REFERENCES "feature" ("id") ON DELETE CASCADE;
ALTER TABLE "subscription" ADD CONSTRAINT "subscription_is_for__organization_fkey" FOREIGN KEY ("is_for__organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "subscription" ADD CONSTRAINT "subscription_is_for__plan_fkey" FOREIGN KEY ("is_for__plan") REFERENCES "plan" ("id");
-- At most one active subscription per organization.
CREATE UNIQUE INDEX "subscription_one_active_idx" ON "subscription" ("is_for__organization") WHERE "is_active";
ALTER TABLE "organization" ADD COLUMN "company_name" text;
ALTER TABLE "organization" ADD COLUMN "has_past_due_invoice_since__date" timestamp with time zone;

-- Invoices (spec 3 §3/§4): numbered per server (FLT-000001…), with their lines, written by the
-- billing service (plan change charges, period close, credit purchases). Server-internal: served
-- through /billing/v1/account/{org}/invoices, not the data API. Amounts in cents (USD).
CREATE SEQUENCE "invoice_number_seq";
CREATE TABLE "invoice" (
  "id" serial PRIMARY KEY,
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  "invoice_number" varchar(32) NOT NULL UNIQUE,
  "uuid" uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
  -- What it bills: the plan (on a change), a closed period (plan + dynamic usage), credits.
  "kind" varchar(32) NOT NULL CHECK ("kind" IN ('subscription', 'period', 'credits', 'fee')),
  "state" varchar(32) NOT NULL DEFAULT 'draft'
    CHECK ("state" IN ('draft', 'open', 'pending', 'processing', 'paid', 'past_due', 'failed', 'voided', 'void', 'closed')),
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "issued_at" timestamp with time zone,
  "due_on" timestamp with time zone,
  "paid_at" timestamp with time zone,
  "period_start" timestamp with time zone,
  "period_end" timestamp with time zone,
  "total_in_cents" integer NOT NULL DEFAULT 0 CHECK ("total_in_cents" >= 0),
  "currency" char(3) NOT NULL DEFAULT 'usd',
  -- The provider that charges it and its reference (a payment intent, a bank transfer note).
  "provider" varchar(32),
  "provider_reference" text,
  "failure_message" text,
  -- Who the invoice is to, as it was when issued (company, address, VAT number, email).
  "billed_to" jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX "invoice_organization_idx" ON "invoice" ("organization", "created_at" DESC);
CREATE TABLE "invoice_line" (
  "id" serial PRIMARY KEY,
  "invoice" integer NOT NULL REFERENCES "invoice" ("id") ON DELETE CASCADE,
  "position" integer NOT NULL,
  "code" varchar(255) NOT NULL,
  "description" text NOT NULL,
  "quantity" integer NOT NULL CHECK ("quantity" >= 0),
  "unit_cost_cents" integer NOT NULL CHECK ("unit_cost_cents" >= 0),
  "amount_cents" integer NOT NULL CHECK ("amount_cents" >= 0),
  UNIQUE ("invoice", "position")
);

-- An organization's billing account (spec 3 §3 billing account and billing info): where invoices
-- go, and its payment method as the dashboard shows it (card/bank/PayPal/… or `manual`) with the
-- billing address. `provider_customer_id` is the provider's customer (Stripe `cus_…`).
CREATE TABLE "billing_account" (
  "organization" integer PRIMARY KEY REFERENCES "organization" ("id") ON DELETE CASCADE,
  "email" varchar(255),
  "cc_emails" text[] NOT NULL DEFAULT '{}',
  "account_state" varchar(32) NOT NULL DEFAULT 'active',
  "provider" varchar(32),
  "provider_customer_id" text,
  "billing_info" jsonb,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);

-- The usage ledger (issue 18 item 3): per organization, billing period and resource
-- (`device:<class>`, `member:<seat role>`), the latest count and the period's peak, recorded by a
-- durable job and read by /billing/v1/account/{org}/usage and the period close.
CREATE TABLE "usage_record" (
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  "period_start" timestamp with time zone NOT NULL,
  "resource" varchar(255) NOT NULL,
  "current_usage" integer NOT NULL DEFAULT 0 CHECK ("current_usage" >= 0),
  "peak_usage" integer NOT NULL DEFAULT 0 CHECK ("peak_usage" >= 0),
  "recorded_at" timestamp with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY ("organization", "period_start", "resource")
);
