import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../paths.js';
import { checkMigration, FIRST_RULED_MIGRATION, migrationNumber } from './migration-rules.js';

const serverVersion = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const migration = (file: string) => readFileSync(MIGRATIONS_DIR + file, 'utf8');

describe('the rolling-upgrade rule for migrations (expand now, contract a release later)', () => {
  it('holds for every migration after issue 21\'s first one (0046)', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => migrationNumber(f) !== undefined).sort();
    expect(files.length).toBeGreaterThan(40);
    const violations = files.flatMap((f) => checkMigration(f, migration(f), serverVersion));
    // Each message names the file, line and statement, and what breaks the previous release.
    expect(violations.map((v) => `${v.file}:${v.line} ${v.what}: ${v.statement}`)).toEqual([]);
    expect(FIRST_RULED_MIGRATION).toBe(47);
  });

  it('accepts expand-only changes', () => {
    const sql = `
      CREATE TABLE "device_note" ("id" serial PRIMARY KEY, "device" integer NOT NULL REFERENCES "device" ("id") ON DELETE CASCADE, "note" text NOT NULL);
      ALTER TABLE "device_note" ADD CONSTRAINT "device_note_len" CHECK (length("note") < 1000);
      CREATE UNIQUE INDEX "device_note_one_idx" ON "device_note" ("device");
      ALTER TABLE "device" ADD COLUMN "nickname" varchar(255);
      ALTER TABLE "device" ADD COLUMN "priority" integer NOT NULL DEFAULT 0;
      ALTER TABLE "device" ADD COLUMN "weight" integer DEFAULT 1 NOT NULL;
      ALTER TABLE "device" ALTER COLUMN "note" DROP NOT NULL;
      CREATE INDEX "device_nickname_idx" ON "device" ("nickname");
      -- a comment that says DROP COLUMN is not a statement
      INSERT INTO "config" ("key", "value") VALUES ('x', 'DROP TABLE y; RENAME');
    `;
    expect(checkMigration('0047_expand.sql', sql, '0.2.0')).toEqual([]);
  });

  it.each([
    ['ALTER TABLE "device" DROP COLUMN "note";', 'drops'],
    ['ALTER TABLE "device" DROP "note";', 'drops a column'],
    ['DROP TABLE "device_tag";', 'drops'],
    ['DROP INDEX "device_uuid_idx";', 'drops'],
    ['ALTER TABLE "device" RENAME COLUMN "note" TO "comment";', 'renames'],
    ['ALTER TABLE "device" RENAME TO "devices";', 'renames'],
    ['ALTER TABLE "device" ALTER COLUMN "note" TYPE varchar(10);', 'type'],
    ['ALTER TABLE "device" ALTER COLUMN "note" SET DATA TYPE varchar(10);', 'type'],
    ['ALTER TABLE "device" ALTER COLUMN "note" SET NOT NULL;', 'NOT NULL'],
    ['ALTER TABLE "device" ALTER COLUMN "note" DROP DEFAULT;', 'default'],
    ['ALTER TABLE "device" ADD COLUMN "rank" integer NOT NULL;', 'without a default'],
    ['ALTER TABLE "device" ADD CONSTRAINT "note_short" CHECK (length("note") < 10);', 'constraint'],
    ['CREATE UNIQUE INDEX "device_name_idx" ON "device" ("device_name");', 'unique index'],
    ['TRUNCATE "device_log";', 'truncates'],
  ])('refuses %s', (sql, what) => {
    const [v] = checkMigration('0047_contract.sql', `-- a change\n\n${sql}\n`, '0.2.0');
    expect(v?.what).toContain(what);
    expect(v?.line).toBe(3);
    expect(v?.file).toBe('0047_contract.sql');
  });

  it('catches the contract steps this project took before the rule (0022 renamed and dropped columns)', () => {
    const found = checkMigration('0047_invitee.sql', migration('0022_invitee.sql'), serverVersion).map((v) => v.what);
    expect(found).toContain('renames (old code uses the old name)');
    expect(found).toContain('drops an object the old release may use');
    expect(found).toContain('makes a column NOT NULL (old code may write NULL)');
    // The same file under its own number predates the rule.
    expect(checkMigration('0022_invitee.sql', migration('0022_invitee.sql'), serverVersion)).toEqual([]);
  });

  it('lets a contract through only when it names a release older than the one shipping it', () => {
    const drop = 'ALTER TABLE "device" DROP COLUMN "note";';
    expect(checkMigration('0050_drop_note.sql', `-- contract: after 0.3.0 (0.3.0 stopped reading device.note)\n${drop}`, '0.4.0')).toEqual([]);
    const same = checkMigration('0050_drop_note.sql', `-- contract: after 0.4.0\n${drop}`, '0.4.0');
    expect(same).toHaveLength(1);
    expect(same[0]!.what).toContain('not older than this release (0.4.0)');
    expect(checkMigration('0050_drop_note.sql', `-- contract: after 1.0.0\n${drop}`, '0.4.0')).toHaveLength(1);
    // A contract without a release is no contract.
    expect(checkMigration('0050_drop_note.sql', `-- contract: soon\n${drop}`, '0.4.0')).toHaveLength(1);
  });

  it('waives one statement marked rolling-safe with a reason, and only that one', () => {
    const sql = `-- rolling-safe: widens the check; the previous release writes only 'a' and 'b'
ALTER TABLE "t" DROP CONSTRAINT "t_kind_check";
-- rolling-safe: the same check with 'c' added
ALTER TABLE "t" ADD CONSTRAINT "t_kind_check" CHECK ("kind" IN ('a', 'b', 'c'));
ALTER TABLE "t" DROP COLUMN "old";`;
    const v = checkMigration('0048_kinds.sql', sql, '0.2.0');
    expect(v).toHaveLength(1);
    expect(v[0]!.line).toBe(5);
    // Without a reason the marker waives nothing.
    expect(checkMigration('0048_kinds.sql', '-- rolling-safe:\nDROP TABLE "t";', '0.2.0')).toHaveLength(1);
  });
});
