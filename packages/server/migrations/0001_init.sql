-- Initial schema, generated from packages/model by packages/server/scripts/print-schema.ts.
-- The schema-drift test (packages/server/test/schema.test.ts) fails if the model and the database disagree.

CREATE TABLE "actor" (
  "id" serial PRIMARY KEY
);
CREATE TABLE "user" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "actor" integer NOT NULL,
  "username" varchar(255) NOT NULL,
  "email" varchar(255) NOT NULL,
  "password" text,
  "has_password_set" boolean NOT NULL DEFAULT false,
  "first_name" varchar(255),
  "last_name" varchar(255),
  "company" varchar(255),
  "account_type" varchar(255) CHECK ("account_type" IN ('personal', 'professional')),
  "has_disabled_newsletter" boolean NOT NULL DEFAULT false,
  "has_been_sent_verification_email" boolean NOT NULL DEFAULT false,
  "is_verified" boolean NOT NULL DEFAULT false,
  "platform_role" varchar(255) CHECK ("platform_role" IN ('support_agent', 'administrator')),
  "tokens_valid_after" timestamp with time zone
);
CREATE UNIQUE INDEX "user_username_ci_key" ON "user" (lower("username"));
CREATE UNIQUE INDEX "user_email_ci_key" ON "user" (lower("email"));
CREATE INDEX "user_actor_idx" ON "user" ("actor");
CREATE TABLE "api_key" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "key" varchar(255) NOT NULL,
  "name" varchar(255),
  "description" text,
  "expiry_date" timestamp with time zone,
  "is_of__actor" integer NOT NULL
);
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_key_key" UNIQUE ("key");
CREATE INDEX "api_key_is_of__actor_idx" ON "api_key" ("is_of__actor");
CREATE TABLE "organization" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "name" varchar(255) NOT NULL,
  "handle" varchar(255) NOT NULL,
  "logo_image" text,
  "is_frozen" boolean NOT NULL DEFAULT false,
  "is_using__billing_version" varchar(255)
);
ALTER TABLE "organization" ADD CONSTRAINT "organization_handle_key" UNIQUE ("handle");
CREATE UNIQUE INDEX "organization_name_ci_key" ON "organization" (lower("name"));
CREATE TABLE "organization_membership_role" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL CHECK ("name" IN ('administrator', 'member'))
);
ALTER TABLE "organization_membership_role" ADD CONSTRAINT "organization_membership_role_name_key" UNIQUE ("name");
CREATE TABLE "organization_membership" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "user" integer NOT NULL,
  "is_member_of__organization" integer NOT NULL,
  "organization_membership_role" integer NOT NULL,
  "effective_seat_role" varchar(255)
);
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_user_is_member_of__organization_key" UNIQUE ("user", "is_member_of__organization");
CREATE INDEX "organization_membership_is_member_of__organization_idx" ON "organization_membership" ("is_member_of__organization");
CREATE TABLE "cpu_architecture" (
  "id" serial PRIMARY KEY,
  "slug" varchar(255) NOT NULL
);
ALTER TABLE "cpu_architecture" ADD CONSTRAINT "cpu_architecture_slug_key" UNIQUE ("slug");
CREATE TABLE "device_type" (
  "id" serial PRIMARY KEY,
  "slug" varchar(255) NOT NULL,
  "name" varchar(255) NOT NULL,
  "is_of__cpu_architecture" integer NOT NULL,
  "logo" text,
  "contract" jsonb,
  "is_private" boolean NOT NULL DEFAULT false
);
ALTER TABLE "device_type" ADD CONSTRAINT "device_type_slug_key" UNIQUE ("slug");
CREATE TABLE "device_type_alias" (
  "id" serial PRIMARY KEY,
  "device_type" integer NOT NULL,
  "is_referenced_by__alias" varchar(255) NOT NULL
);
ALTER TABLE "device_type_alias" ADD CONSTRAINT "device_type_alias_is_referenced_by__alias_key" UNIQUE ("is_referenced_by__alias");
CREATE INDEX "device_type_alias_device_type_idx" ON "device_type_alias" ("device_type");
CREATE TABLE "application_type" (
  "id" serial PRIMARY KEY,
  "name" varchar(255) NOT NULL,
  "slug" varchar(255) NOT NULL,
  "description" text,
  "is_legacy" boolean NOT NULL DEFAULT false,
  "supports_web_url" boolean NOT NULL DEFAULT true,
  "supports_multicontainer" boolean NOT NULL DEFAULT true,
  "supports_gateway_mode" boolean NOT NULL DEFAULT true,
  "requires_payment" boolean NOT NULL DEFAULT false,
  "needs__os_version_range" varchar(255),
  "maximum_device_count" integer
);
ALTER TABLE "application_type" ADD CONSTRAINT "application_type_slug_key" UNIQUE ("slug");
CREATE TABLE "application" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "actor" integer NOT NULL,
  "app_name" varchar(255) NOT NULL,
  "slug" varchar(255) NOT NULL,
  "uuid" varchar(255) NOT NULL,
  "is_of__class" varchar(255) NOT NULL DEFAULT 'fleet' CHECK ("is_of__class" IN ('fleet', 'app', 'block')),
  "organization" integer NOT NULL,
  "is_for__device_type" integer NOT NULL,
  "application_type" integer,
  "should_track_latest_release" boolean NOT NULL DEFAULT true,
  "is_host" boolean NOT NULL DEFAULT false,
  "is_public" boolean NOT NULL DEFAULT false,
  "is_discoverable" boolean NOT NULL DEFAULT false,
  "is_archived" boolean NOT NULL DEFAULT false,
  "is_accessible_by_support_until__date" timestamp with time zone,
  "is_stored_at__repository_url" text
);
ALTER TABLE "application" ADD CONSTRAINT "application_slug_key" UNIQUE ("slug");
ALTER TABLE "application" ADD CONSTRAINT "application_uuid_key" UNIQUE ("uuid");
CREATE INDEX "application_organization_idx" ON "application" ("organization");
CREATE INDEX "application_is_for__device_type_idx" ON "application" ("is_for__device_type");
ALTER TABLE "user" ADD CONSTRAINT "user_actor_fkey" FOREIGN KEY ("actor") REFERENCES "actor" ("id");
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_is_of__actor_fkey" FOREIGN KEY ("is_of__actor") REFERENCES "actor" ("id") ON DELETE CASCADE;
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_user_fkey" FOREIGN KEY ("user") REFERENCES "user" ("id") ON DELETE CASCADE;
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_is_member_of__organization_fkey" FOREIGN KEY ("is_member_of__organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "organization_membership" ADD CONSTRAINT "organization_membership_organization_membership_role_fkey" FOREIGN KEY ("organization_membership_role") REFERENCES "organization_membership_role" ("id");
ALTER TABLE "device_type" ADD CONSTRAINT "device_type_is_of__cpu_architecture_fkey" FOREIGN KEY ("is_of__cpu_architecture") REFERENCES "cpu_architecture" ("id");
ALTER TABLE "device_type_alias" ADD CONSTRAINT "device_type_alias_device_type_fkey" FOREIGN KEY ("device_type") REFERENCES "device_type" ("id") ON DELETE CASCADE;
ALTER TABLE "application" ADD CONSTRAINT "application_actor_fkey" FOREIGN KEY ("actor") REFERENCES "actor" ("id");
ALTER TABLE "application" ADD CONSTRAINT "application_organization_fkey" FOREIGN KEY ("organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "application" ADD CONSTRAINT "application_is_for__device_type_fkey" FOREIGN KEY ("is_for__device_type") REFERENCES "device_type" ("id");
ALTER TABLE "application" ADD CONSTRAINT "application_application_type_fkey" FOREIGN KEY ("application_type") REFERENCES "application_type" ("id");

-- Internal tables (not exposed through the data API).
-- Failed logins per username, for the 10-in-2-hours lockout.
CREATE TABLE login_failure (
  username text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failure_username_idx ON login_failure (lower(username), failed_at);
-- Server-wide secrets generated on first start (JWT signing key).
CREATE TABLE flotilla_secret (
  name text PRIMARY KEY,
  value text NOT NULL
);
