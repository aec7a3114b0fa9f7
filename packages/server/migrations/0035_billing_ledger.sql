-- Issue 18 (ledger): the period close writes one `period` invoice per organization and closed
-- period (running it twice writes one); the past-due sweep reads unpaid invoices by due date;
-- the frozen-write rule asks first whether any organization is frozen at all.
CREATE UNIQUE INDEX "invoice_one_period_close_idx" ON "invoice" ("organization", "period_start") WHERE "kind" = 'period';
CREATE INDEX "invoice_unpaid_due_idx" ON "invoice" ("due_on") WHERE "state" IN ('open', 'pending', 'processing', 'failed', 'past_due');
CREATE INDEX "organization_frozen_idx" ON "organization" ("id") WHERE "is_frozen";
