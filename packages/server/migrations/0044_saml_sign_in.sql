-- Issue 20: SAML sign-in state (features/saml). Not part of the data API.
-- The AuthnRequests we issued, until they expire: a response must answer one of them (InResponseTo).
CREATE TABLE "saml_authn_request" (
  "request_id" varchar(255) PRIMARY KEY,
  "identity_provider" integer NOT NULL REFERENCES "identity_provider" ("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL
);
CREATE INDEX "saml_authn_request_expires_at_idx" ON "saml_authn_request" ("expires_at");

-- Replay protection: each accepted assertion's ID, kept until the assertion expires.
CREATE TABLE "saml_assertion_seen" (
  "identity_provider" integer NOT NULL REFERENCES "identity_provider" ("id") ON DELETE CASCADE,
  "assertion_id" varchar(255) NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("identity_provider", "assertion_id")
);
CREATE INDEX "saml_assertion_seen_expires_at_idx" ON "saml_assertion_seen" ("expires_at");

-- The single-use, short-lived codes /auth/saml/finalize exchanges (only their SHA-256 is kept):
-- `signon` names the user signed in; `merge` carries the asserted identity until the user proves
-- they own the existing account with that e-mail.
CREATE TABLE "saml_login_code" (
  "code_hash" varchar(64) PRIMARY KEY,
  "kind" varchar(10) NOT NULL CHECK ("kind" IN ('signon', 'merge')),
  "identity_provider" integer NOT NULL REFERENCES "identity_provider" ("id") ON DELETE CASCADE,
  "user" integer REFERENCES "user" ("id") ON DELETE CASCADE,
  "remote_id" varchar(255) NOT NULL,
  "email" varchar(255) NOT NULL,
  "display_name" varchar(255),
  "expires_at" timestamp with time zone NOT NULL
);
CREATE INDEX "saml_login_code_expires_at_idx" ON "saml_login_code" ("expires_at");
