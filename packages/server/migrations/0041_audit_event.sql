-- Issue 19 item 2: the organization's audit trail. One row per request per organization whose data
-- provider staff read (support agents, platform administrators, an administrator logged in as a
-- user); issue 21 adds the writes as further kinds. Written by the server only (features/staff-audit),
-- read through /v7/audit_event by the organization's administrators.
CREATE TABLE "audit_event" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "organization" integer NOT NULL,
  "kind" varchar(255) NOT NULL CHECK ("kind" IN ('staff_read')),
  "is_performed_as__user" integer,
  "performed_as_username" varchar(255) NOT NULL,
  "is_performed_by__user" integer,
  "performed_by_username" varchar(255) NOT NULL,
  "staff_role" varchar(255) CHECK ("staff_role" IN ('support_agent', 'administrator')),
  "method" varchar(255) NOT NULL,
  "route" varchar(255) NOT NULL,
  "resource" varchar(255),
  "request" text NOT NULL,
  "request_id" varchar(255) NOT NULL
);
CREATE INDEX "audit_event_organization_created_at_idx" ON "audit_event" ("organization", "created_at");
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_organization_fkey" FOREIGN KEY ("organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_is_performed_as__user_fkey" FOREIGN KEY ("is_performed_as__user") REFERENCES "user" ("id") ON DELETE SET NULL;
ALTER TABLE "audit_event" ADD CONSTRAINT "audit_event_is_performed_by__user_fkey" FOREIGN KEY ("is_performed_by__user") REFERENCES "user" ("id") ON DELETE SET NULL;
