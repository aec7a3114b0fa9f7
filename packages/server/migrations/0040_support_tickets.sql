-- Issue 19 item 1: the built-in helpdesk. Ticket fields configured by platform staff, tickets
-- filed by members through /zendesk/v1/{org}/submit-ticket, their uploaded attachments and the
-- thread of replies. Server-internal (served by /zendesk/v1/* and /admin/v1/support/*, not the
-- data API), like the invoices.

CREATE TABLE "support_ticket_field" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "type" varchar(16) NOT NULL CHECK ("type" IN ('subject', 'description', 'text', 'textarea', 'tagger', 'checkbox', 'date')),
  "title" text NOT NULL CHECK (length("title") BETWEEN 1 AND 100),
  "title_in_portal" text NOT NULL CHECK (length("title_in_portal") BETWEEN 1 AND 100),
  "required_in_portal" boolean NOT NULL DEFAULT false,
  "active" boolean NOT NULL DEFAULT true,
  "position" integer NOT NULL,
  -- A select's options, [{name, value}]; null for the other types.
  "custom_field_options" jsonb
);
-- One subject and one description.
CREATE UNIQUE INDEX "support_ticket_field_system_idx" ON "support_ticket_field" ("type") WHERE "type" IN ('subject', 'description');

INSERT INTO "support_ticket_field" ("type", "title", "title_in_portal", "required_in_portal", "position", "custom_field_options") VALUES
  ('subject', 'Subject', 'Subject', true, 1, NULL),
  ('description', 'Description', 'Describe the problem', true, 2, NULL),
  ('tagger', 'Category', 'What is it about?', true, 3,
    '[{"name":"Devices and fleets","value":"devices"},{"name":"Releases and deploying","value":"releases"},{"name":"Account and access","value":"account"},{"name":"Billing","value":"billing"},{"name":"Something else","value":"other"}]'),
  ('tagger', 'Severity', 'How much does it affect you?', true, 4,
    '[{"name":"Question","value":"question"},{"name":"Minor: a workaround exists","value":"minor"},{"name":"Major: work is blocked","value":"major"},{"name":"Critical: production is down","value":"critical"}]');

CREATE TABLE "support_ticket" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  -- A ticket goes with its organization (its members' data).
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  -- The requester as they were (kept when the user is deleted).
  "requester" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "requester_username" text NOT NULL,
  "requester_email" text NOT NULL,
  "cc_emails" text[] NOT NULL DEFAULT '{}',
  "subject" text NOT NULL,
  "description" text NOT NULL,
  -- The custom fields as filed: [{id, title, type, value, display}] (titles kept as they were).
  "field_values" jsonb NOT NULL DEFAULT '[]',
  "status" varchar(16) NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'answered', 'closed')),
  -- The Zendesk bridge: the ticket's id there, or why forwarding failed.
  "zendesk_id" bigint,
  "forward_error" text
);
CREATE INDEX "support_ticket_created_idx" ON "support_ticket" ("created_at" DESC, "id" DESC);
CREATE INDEX "support_ticket_status_idx" ON "support_ticket" ("status", "created_at" DESC);
CREATE INDEX "support_ticket_organization_idx" ON "support_ticket" ("organization", "created_at" DESC);

-- An attachment: uploaded first (its token returned), then named by a ticket's comment.uploads.
CREATE TABLE "support_upload" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "token" text NOT NULL UNIQUE,
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  "uploaded_by" integer REFERENCES "user" ("id") ON DELETE CASCADE,
  "ticket" integer REFERENCES "support_ticket" ("id") ON DELETE CASCADE,
  "file_key" text NOT NULL,
  "filename" text NOT NULL,
  "content_type" text NOT NULL,
  "size" integer NOT NULL CHECK ("size" >= 0)
);
CREATE INDEX "support_upload_ticket_idx" ON "support_upload" ("ticket");
CREATE INDEX "support_upload_unattached_idx" ON "support_upload" ("created_at") WHERE "ticket" IS NULL;

-- The file goes from the store once its row is gone (the ticket or organization deleted, a stale upload dropped).
CREATE FUNCTION "support_upload_garbage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "stored_file_garbage" ("key") VALUES (OLD."file_key") ON CONFLICT ("key") DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER "support_upload_garbage" AFTER DELETE ON "support_upload"
  FOR EACH ROW EXECUTE FUNCTION "support_upload_garbage"();

-- The thread: the requester's description is the ticket itself; replies from staff follow.
CREATE TABLE "support_ticket_message" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "ticket" integer NOT NULL REFERENCES "support_ticket" ("id") ON DELETE CASCADE,
  "author" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "author_username" text NOT NULL,
  "body" text NOT NULL CHECK (length("body") BETWEEN 1 AND 20000)
);
CREATE INDEX "support_ticket_message_ticket_idx" ON "support_ticket_message" ("ticket", "created_at");
