-- Durable mail delivery: a mail is queued in the outbox in the transaction that causes it and
-- delivered after commit by a job, retried with backoff when SMTP fails (docs/decisions.md).
ALTER TABLE "email_outbox"
  ADD COLUMN "status" varchar(255) NOT NULL DEFAULT 'queued' CHECK ("status" IN ('queued', 'sent', 'failed')),
  ADD COLUMN "attempts" integer NOT NULL DEFAULT 0,
  ADD COLUMN "next_attempt_at" timestamp with time zone,
  ADD COLUMN "sent_at" timestamp with time zone;
-- Mail recorded before this migration was delivered at once, or failed for good.
UPDATE "email_outbox" SET "status" = CASE WHEN "error" IS NULL THEN 'sent' ELSE 'failed' END,
                          "attempts" = 1,
                          "sent_at" = CASE WHEN "error" IS NULL THEN "created_at" END;
CREATE INDEX "email_outbox_due_idx" ON "email_outbox" ("next_attempt_at") WHERE "status" = 'queued';
