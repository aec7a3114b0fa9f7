-- Issue 18 (Stripe webhooks, docs/billing.md "Stripe webhooks"): the ids of the Stripe events
-- received at POST /billing/v1/stripe/webhook, so that each is processed once (Stripe delivers
-- at least once and retries; a replay answers 200 and changes nothing).
CREATE TABLE "stripe_webhook_event" (
  "id" varchar(255) PRIMARY KEY,
  "type" varchar(255) NOT NULL,
  "received_at" timestamp with time zone NOT NULL DEFAULT now(),
  -- What the event did here: the invoice it settled, or why it was ignored.
  "outcome" text NOT NULL DEFAULT ''
);
