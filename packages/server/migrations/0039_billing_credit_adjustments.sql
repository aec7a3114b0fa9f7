-- Issue 18 (admin credits): platform administrators grant complimentary credits and refund paid
-- purchases and invoices. An invoice can now be 'refunded' (full refunds only), and every grant
-- and refund is logged: who, when, why, for which organization, bundle or invoice. Server-internal
-- (served by /admin/v1/billing/credit-adjustments, not the data API), like the invoices.
ALTER TABLE "invoice" DROP CONSTRAINT "invoice_state_check";
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_state_check"
  CHECK ("state" IN ('draft', 'open', 'pending', 'processing', 'paid', 'past_due', 'failed', 'voided', 'void', 'closed', 'refunded'));
ALTER TABLE "invoice" ADD COLUMN "refunded_at" timestamp with time zone;

CREATE TABLE "credit_adjustment" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "kind" varchar(16) NOT NULL CHECK ("kind" IN ('grant', 'refund')),
  -- Kept when the organization or the administrator is deleted (the log outlives them).
  "organization" integer REFERENCES "organization" ("id") ON DELETE SET NULL,
  "organization_name" text NOT NULL,
  "administrator" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "administrator_username" text NOT NULL,
  "credit_bundle" integer REFERENCES "credit_bundle" ("id") ON DELETE SET NULL,
  "invoice_number" varchar(32),
  -- Credits granted, or the credits a refund removed (null: an invoice without credits).
  "quantity" integer CHECK ("quantity" IS NULL OR "quantity" >= 0),
  "amount_cents" integer NOT NULL DEFAULT 0 CHECK ("amount_cents" >= 0),
  -- How the money went back: through the provider that took it (stripe), or outside it (manual).
  "refunded_through" varchar(16),
  "reason" text NOT NULL CHECK (length("reason") BETWEEN 1 AND 500)
);
CREATE INDEX "credit_adjustment_organization_idx" ON "credit_adjustment" ("organization", "created_at" DESC);
CREATE INDEX "credit_adjustment_created_idx" ON "credit_adjustment" ("created_at" DESC);
