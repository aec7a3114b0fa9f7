-- Account recovery (issue 6 items 2-3; spec 1 §2, §4, §8): e-mail verification tokens,
-- password reset login codes and the request log that rate-limits the mails. Internal tables
-- (not data-API resources): only the sha256 of a token or code is stored; each is single use
-- (used_at) and expires (expires_at).
CREATE TABLE "email_verification_token" (
  "id" serial PRIMARY KEY,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  -- The address the mail went to: a token verifies that address only.
  "email" varchar(255) NOT NULL,
  "token_hash" varchar(64) NOT NULL UNIQUE,
  "created_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);
CREATE INDEX "email_verification_token_user_idx" ON "email_verification_token" ("user");

CREATE TABLE "password_reset_code" (
  "id" serial PRIMARY KEY,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "code_hash" varchar(64) NOT NULL UNIQUE,
  "created_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone
);
CREATE INDEX "password_reset_code_user_idx" ON "password_reset_code" ("user");

-- One row per accepted mail request (kind: 'password-reset-email', 'password-reset-ip',
-- 'verification-email'); the limits count rows inside a window. Old rows are pruned.
CREATE TABLE "account_mail_request" (
  "id" bigserial PRIMARY KEY,
  "kind" varchar(32) NOT NULL,
  "subject" varchar(255) NOT NULL,
  "requested_at" timestamp with time zone NOT NULL
);
CREATE INDEX "account_mail_request_lookup_idx" ON "account_mail_request" ("kind", "subject", "requested_at");
