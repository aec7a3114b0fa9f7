-- Issue 20: enterprise single sign-on. SAML identity providers, the organizations they authorize (with
-- the default team of new users) and the SAML accounts their sign-ins create (model identity-provider/).
CREATE TABLE "identity_provider" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "sso_identifier" varchar(255) NOT NULL,
  "entry_point" text NOT NULL,
  "issuer" text NOT NULL,
  "certificate" text NOT NULL,
  "requires_signed_authn_response" boolean NOT NULL DEFAULT false
);
ALTER TABLE "identity_provider" ADD CONSTRAINT "identity_provider_sso_identifier_key" UNIQUE ("sso_identifier");
CREATE TABLE "identity_provider_membership" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "organization" integer NOT NULL,
  "is_authorized_by__identity_provider" integer NOT NULL,
  "grants_access_to__team" integer
);
ALTER TABLE "identity_provider_membership" ADD CONSTRAINT "identity_provider_membership_organization_is_authorized_by__identity_provider_key" UNIQUE ("organization", "is_authorized_by__identity_provider");
CREATE INDEX "identity_provider_membership_is_authorized_by__identity_provider_idx" ON "identity_provider_membership" ("is_authorized_by__identity_provider");
CREATE TABLE "saml_account" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "belongs_to__user" integer NOT NULL,
  "was_generated_by__identity_provider" integer NOT NULL,
  "remote_id" varchar(255) NOT NULL,
  "display_name" varchar(255)
);
ALTER TABLE "saml_account" ADD CONSTRAINT "saml_account_was_generated_by__identity_provider_remote_id_key" UNIQUE ("was_generated_by__identity_provider", "remote_id");
CREATE INDEX "saml_account_belongs_to__user_idx" ON "saml_account" ("belongs_to__user");
ALTER TABLE "identity_provider_membership" ADD CONSTRAINT "identity_provider_membership_organization_fkey" FOREIGN KEY ("organization") REFERENCES "organization" ("id") ON DELETE CASCADE;
ALTER TABLE "identity_provider_membership" ADD CONSTRAINT "identity_provider_membership_is_authorized_by__identity_provider_fkey" FOREIGN KEY ("is_authorized_by__identity_provider") REFERENCES "identity_provider" ("id") ON DELETE CASCADE;
ALTER TABLE "identity_provider_membership" ADD CONSTRAINT "identity_provider_membership_grants_access_to__team_fkey" FOREIGN KEY ("grants_access_to__team") REFERENCES "team" ("id") ON DELETE SET NULL;
ALTER TABLE "saml_account" ADD CONSTRAINT "saml_account_belongs_to__user_fkey" FOREIGN KEY ("belongs_to__user") REFERENCES "user" ("id") ON DELETE CASCADE;
ALTER TABLE "saml_account" ADD CONSTRAINT "saml_account_was_generated_by__identity_provider_fkey" FOREIGN KEY ("was_generated_by__identity_provider") REFERENCES "identity_provider" ("id") ON DELETE RESTRICT;
