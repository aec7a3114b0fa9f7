-- Issue 11 (1h): failed logins count per account (username and e-mail share one counter)
-- and per source address, so a stranger's failures lock only their own address out.
ALTER TABLE login_failure ADD COLUMN account text, ADD COLUMN address text NOT NULL DEFAULT '';
UPDATE login_failure SET account = 'name:' || lower(username);
ALTER TABLE login_failure ALTER COLUMN account SET NOT NULL;
DROP INDEX login_failure_username_idx;
CREATE INDEX login_failure_account_idx ON login_failure (account, address, failed_at);
CREATE INDEX login_failure_address_idx ON login_failure (address, failed_at);
