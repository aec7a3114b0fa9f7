-- 0017: two-factor authentication (issue 6 item 4; spec 1 §2, §3 "recovery code", §4).
-- These tables are not resources of the data model: nothing here is reachable through /v7,
-- only through /auth/totp/* and /auth/v1/2fa-recover/* (docs/decisions.md).

-- One row per user who has started or finished setup. `pending_secret` is the secret shown
-- by GET /auth/totp/setup until a code from it is verified; `secret` is set once enabled.
-- `last_used_step` is the TOTP step of the last accepted code: no code of that step or an
-- earlier one is accepted again.
CREATE TABLE "user_two_factor" (
  "user" integer PRIMARY KEY REFERENCES "user" ("id") ON DELETE CASCADE,
  "secret" varchar(255),
  "pending_secret" varchar(255),
  "enabled_at" timestamp with time zone,
  "last_used_step" bigint
);

-- Recovery codes: sha256 of each code (the codes are shown once), single use.
CREATE TABLE "two_factor_recovery_code" (
  "id" serial PRIMARY KEY,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "recovery_code" varchar(255) NOT NULL,
  "used_timestamp" timestamp with time zone,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
CREATE INDEX "two_factor_recovery_code_user_idx" ON "two_factor_recovery_code" ("user");

-- Failed verification attempts (TOTP or recovery code), for the per-user rate limit.
CREATE TABLE "two_factor_failure" (
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "failed_at" timestamp with time zone NOT NULL
);
CREATE INDEX "two_factor_failure_user_idx" ON "two_factor_failure" ("user", "failed_at");
