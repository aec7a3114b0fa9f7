-- Social login through OpenID Connect (issue 20 item 3). Not part of the data API.
-- A sign-in or link in progress: the state sent to the provider (only its SHA-256 is kept),
-- the nonce and PKCE verifier it must come back with, the SHA-256 of the browser-binding
-- cookie set when the flow began, and for a link the signed-in user. Single use, 10 minutes.
CREATE TABLE "social_login_state" (
  "state_hash" varchar(64) PRIMARY KEY,
  "provider" varchar(32) NOT NULL,
  "nonce" varchar(128) NOT NULL,
  "code_verifier" varchar(128) NOT NULL,
  "browser_hash" varchar(64) NOT NULL,
  "link_user" integer REFERENCES "user" ("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL
);
CREATE INDEX "social_login_state_expires_at_idx" ON "social_login_state" ("expires_at");
CREATE INDEX "social_login_state_link_user_idx" ON "social_login_state" ("link_user");

-- A link intent: the signed-in user asked to link a provider (POST /auth/{provider}/link);
-- the browser then navigates to /auth/{provider}?link={token}, which cannot carry the
-- bearer token. Only the token's SHA-256 is kept; single use, 2 minutes.
CREATE TABLE "social_link_intent" (
  "token_hash" varchar(64) PRIMARY KEY,
  "provider" varchar(32) NOT NULL,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "expires_at" timestamp with time zone NOT NULL
);
CREATE INDEX "social_link_intent_user_idx" ON "social_link_intent" ("user");
