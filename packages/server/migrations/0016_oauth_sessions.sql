-- OAuth login (issue 6 item 8, sessions helper): registered applications (platform
-- administrators manage them through /v7/oauth_application), a user's consent to an
-- application, and single-use, short-lived authorization codes (only their SHA-256 is kept).
-- "Log out from other sessions" uses the existing user.tokens_valid_after column.
CREATE TABLE "oauth_application" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "client_id" varchar(255) NOT NULL,
  "redirect_uri" text NOT NULL,
  "name" varchar(255) NOT NULL,
  "description" text
);
ALTER TABLE "oauth_application" ADD CONSTRAINT "oauth_application_client_id_key" UNIQUE ("client_id");

CREATE TABLE "oauth_application_authorization" (
  "id" serial PRIMARY KEY,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "belongs_to__user" integer NOT NULL,
  "is_for__oauth_application" integer NOT NULL
);
ALTER TABLE "oauth_application_authorization" ADD CONSTRAINT "oauth_app_authorization_user_app_key" UNIQUE ("belongs_to__user", "is_for__oauth_application");
CREATE INDEX "oauth_app_authorization_app_idx" ON "oauth_application_authorization" ("is_for__oauth_application");
ALTER TABLE "oauth_application_authorization" ADD CONSTRAINT "oauth_app_authorization_belongs_to__user_fkey" FOREIGN KEY ("belongs_to__user") REFERENCES "user" ("id") ON DELETE CASCADE;
ALTER TABLE "oauth_application_authorization" ADD CONSTRAINT "oauth_app_authorization_is_for__oauth_application_fkey" FOREIGN KEY ("is_for__oauth_application") REFERENCES "oauth_application" ("id") ON DELETE CASCADE;

-- Not part of the data API: codes are exchanged at POST /oauth/token only.
CREATE TABLE "oauth_authorization_code" (
  "id" serial PRIMARY KEY,
  "code_hash" varchar(64) NOT NULL UNIQUE,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "oauth_application" integer NOT NULL REFERENCES "oauth_application" ("id") ON DELETE CASCADE,
  "redirect_uri" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);
