/**
 * The rolling-upgrade rule for migrations (docs/deploy.md, "Upgrading node by node").
 *
 * During a rolling upgrade the first NEW node applies the new migrations while OLD nodes
 * still serve: every migration must leave a schema the previous release's code works with.
 * So a migration only EXPANDS (new tables, new nullable or defaulted columns, new indexes,
 * new functions…). Whatever would break the old code — dropping, renaming, retyping,
 * tightening a column the old code writes — is a CONTRACT step, shipped in a later release
 * once no node runs code that needs the old shape, and marked in the file with
 *
 *     -- contract: after 1.4.0 (1.4.0 stopped reading device.old_column)
 *
 * naming the release after which it is safe. That release must be older than the one that
 * ships the migration (the server package's version), so a contract never rides in the
 * same release as the code change that made it possible.
 *
 * The check is by pattern, so it also flags some changes that are safe for old code (widening
 * a CHECK constraint by dropping and re-adding it, say). Such a statement is waived by a
 * comment line right before it: `-- rolling-safe: <why the previous release still works>`.
 *
 * Migrations numbered below {@link FIRST_RULED_MIGRATION} predate the rule: 0046 is issue 21's
 * first migration, the rule holds for every migration after it.
 */
export const FIRST_RULED_MIGRATION = 47;

export interface RuleViolation {
  file: string;
  /** 1-based line of the statement's start. */
  line: number;
  what: string;
  statement: string;
}

interface Pattern {
  what: string;
  test: RegExp;
  /** Only a violation when the table it changes was not created in the same file. */
  existingTableOnly?: boolean;
}

const PATTERNS: Pattern[] = [
  { what: 'drops an object the old release may use', test: /\bDROP\s+(TABLE|COLUMN|VIEW|MATERIALIZED\s+VIEW|FUNCTION|PROCEDURE|TYPE|DOMAIN|SCHEMA|TRIGGER|INDEX|SEQUENCE|CONSTRAINT)\b/i },
  { what: 'drops a column (ALTER TABLE … DROP name)', test: /\bALTER\s+TABLE\b[\s\S]*\bDROP\s+(?!COLUMN\b|CONSTRAINT\b|DEFAULT\b|NOT\s+NULL\b|EXPRESSION\b|IDENTITY\b)("?[a-z_][\w$]*"?)/i },
  { what: 'renames (old code uses the old name)', test: /\bRENAME\b/i },
  { what: 'changes a column type', test: /\bALTER\s+(COLUMN\s+)?("?[a-z_][\w$]*"?)\s+(SET\s+DATA\s+)?TYPE\b/i },
  { what: 'makes a column NOT NULL (old code may write NULL)', test: /\bSET\s+NOT\s+NULL\b/i },
  { what: 'drops a default (old code may rely on it)', test: /\bDROP\s+DEFAULT\b/i },
  { what: 'adds a NOT NULL column without a default (old code inserts without it)', test: /\bADD\s+(COLUMN\s+)?(IF\s+NOT\s+EXISTS\s+)?"?[a-z_][\w$]*"?\s+[^,;]*\bNOT\s+NULL\b(?![^,;]*\bDEFAULT\b)(?<![^,;]*\bDEFAULT\b[^,;]*)/i },
  { what: 'truncates a table', test: /\bTRUNCATE\b/i },
  { what: 'adds a constraint to an existing table (old code\'s writes may violate it)', test: /\bADD\s+(CONSTRAINT|CHECK|UNIQUE|PRIMARY\s+KEY|FOREIGN\s+KEY|EXCLUDE)\b/i, existingTableOnly: true },
  { what: 'adds a unique index to an existing table (old code\'s writes may violate it)', test: /\bCREATE\s+UNIQUE\s+INDEX\b/i, existingTableOnly: true },
];

/** `-- contract: after 1.2.3 …` */
const CONTRACT = /^\s*--\s*contract:\s*after\s+v?(\d+)\.(\d+)\.(\d+)\b/im;

function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** The migration number of `NNNN_name.sql`, or undefined. */
export function migrationNumber(file: string): number | undefined {
  const m = /^(\d{4})_.+\.sql$/.exec(file);
  return m ? Number(m[1]) : undefined;
}

/** Blanks comments and quoted strings (keeping line breaks, so line numbers stay right). */
function code(sql: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'/g, blank);
}

/** Tables the file creates itself: adding constraints to them breaks nothing old. */
function createdTables(sql: string): Set<string> {
  const names = new Set<string>();
  for (const m of sql.matchAll(/\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([\w$]+)"?/gi)) names.add(m[1]!.toLowerCase());
  return names;
}

function tableOf(statement: string): string | undefined {
  const m = /\b(?:ALTER\s+TABLE(?:\s+IF\s+EXISTS)?(?:\s+ONLY)?|\bON(?:\s+ONLY)?)\s+"?([\w$]+)"?/i.exec(statement);
  return m?.[1]?.toLowerCase();
}

/**
 * The statements of one migration that break the rule. `version` is the release shipping the
 * migration (x.y.z). A file marked `-- contract: after X.Y.Z` with X.Y.Z older than `version`
 * may contract; one naming `version` itself or a later release is a violation.
 */
export function checkMigration(file: string, sql: string, version: string): RuleViolation[] {
  const n = migrationNumber(file);
  if (n === undefined || n < FIRST_RULED_MIGRATION) return [];
  const contract = CONTRACT.exec(sql);
  if (contract) {
    const named = contract.slice(1, 4).map(Number);
    const current = version.split('.').map(Number);
    if (compareVersions(named, current) < 0) return [];
    return [{ file, line: sql.slice(0, contract.index).split('\n').length, what: `the contract names release ${named.join('.')}, which is not older than this release (${version}): old nodes may still need what it removes`, statement: contract[0].trim() }];
  }
  const stripped = code(sql);
  const created = createdTables(stripped);
  const out: RuleViolation[] = [];
  let offset = 0;
  for (const statement of stripped.split(';')) {
    const start = offset;
    offset += statement.length + 1;
    if (statement.trim() === '') continue;
    for (const p of PATTERNS) {
      if (!p.test.test(statement)) continue;
      if (p.existingTableOnly) {
        const table = tableOf(statement);
        if (table !== undefined && created.has(table)) continue;
      }
      const lead = statement.length - statement.trimStart().length;
      // The comments right before the statement (blanked in `stripped`, intact in `sql`).
      if (/^\s*--\s*rolling-safe:\s*\S/m.test(sql.slice(start, start + lead))) break;
      out.push({
        file,
        line: stripped.slice(0, start + lead).split('\n').length,
        what: p.what,
        statement: statement.trim().replace(/\s+/g, ' ').slice(0, 160),
      });
      break;
    }
  }
  return out;
}
