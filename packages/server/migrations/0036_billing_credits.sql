-- Issue 18 items 5 and 7: credit bundles (prepaid device credits bought through the payment
-- provider) and the organization's low-credit notification, in balena's v7 shape
-- (packages/model/src/billing/credits.resource.ts, docs/billing.md).
CREATE TABLE "credit_bundle" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "modified_at" timestamp with time zone NOT NULL DEFAULT now(),
  "belongs_to__organization" integer NOT NULL,
  "is_for__feature" integer NOT NULL,
  "original_quantity" integer NOT NULL,
  "is_created_by__user" integer,
  "payment_status" varchar(255) NOT NULL DEFAULT 'processing' CHECK ("payment_status" IN ('processing', 'paid', 'failed', 'complimentary', 'cancelled', 'refunded', 'manually invoiced')),
  "unit_cost" integer NOT NULL DEFAULT 0,
  "total_cost" integer NOT NULL DEFAULT 0,
  "total_balance" integer NOT NULL DEFAULT 0,
  "available_balance" integer NOT NULL DEFAULT 0,
  "expires_on__date" timestamp with time zone NOT NULL,
  "is_associated_with__invoice_id" varchar(255),
  "error_message" text
);
CREATE INDEX "credit_bundle_belongs_to__organization_idx" ON "credit_bundle" ("belongs_to__organization");
CREATE TABLE "organization_credit_notification" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "organization" integer NOT NULL,
  "owns_credit_notification_for__feature" integer NOT NULL,
  "is_sent_when_below__threshold" integer NOT NULL,
  "is_notified" boolean NOT NULL DEFAULT false
);
ALTER TABLE "organization_credit_notification" ADD CONSTRAINT "organization_credit_notification_organization_owns_credit_notification_for__feature_key" UNIQUE ("organization", "owns_credit_notification_for__feature");
ALTER TABLE "credit_bundle" ADD CONSTRAINT "credit_bundle_belongs_to__organization_fkey" FOREIGN KEY ("belongs_to__organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "credit_bundle" ADD CONSTRAINT "credit_bundle_is_for__feature_fkey" FOREIGN KEY ("is_for__feature") REFERENCES "feature" ("id");
ALTER TABLE "credit_bundle" ADD CONSTRAINT "credit_bundle_is_created_by__user_fkey" FOREIGN KEY ("is_created_by__user") REFERENCES "user" ("id") ON DELETE SET NULL;
ALTER TABLE "organization_credit_notification" ADD CONSTRAINT "organization_credit_notification_organization_fkey" FOREIGN KEY ("organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "organization_credit_notification" ADD CONSTRAINT "organization_credit_notification_owns_credit_notification_for__feature_fkey" FOREIGN KEY ("owns_credit_notification_for__feature") REFERENCES "feature" ("id");

-- The provider's payment method behind a billing account's billing_info (Stripe `pm_…`), so a
-- charge uses it and removing the payment method detaches it.
ALTER TABLE "billing_account" ADD COLUMN "provider_payment_method_id" text;
