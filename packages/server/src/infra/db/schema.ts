import type { FieldDef, Model, ResourceDef } from '@flotilla/model';

/** SQL column type for each model field type. Also used by the schema-drift test. */
export const SQL_TYPES: Record<FieldDef['type'], string> = {
  Serial: 'integer',
  Integer: 'integer',
  'Big Integer': 'bigint',
  Real: 'double precision',
  Boolean: 'boolean',
  'Short Text': 'character varying',
  Text: 'text',
  'Date Time': 'timestamp with time zone',
  JSON: 'jsonb',
  WebResource: 'jsonb',
  ForeignKey: 'integer',
};

const q = (id: string) => `"${id}"`;

/** The fields that are columns (computed fields are expressions over them, not stored). */
export const stored = (r: ResourceDef): FieldDef[] => r.fields.filter((f) => f.computed === undefined);

function columnSql(f: FieldDef): string {
  if (f.type === 'Serial') return `${q(f.name)} serial PRIMARY KEY`;
  const type = f.type === 'Short Text' ? 'varchar(255)' : SQL_TYPES[f.type];
  let sql = `${q(f.name)} ${type}`;
  if (f.required) sql += ' NOT NULL';
  if (f.default !== undefined) sql += ` DEFAULT ${f.default}`;
  if (f.enum) sql += ` CHECK (${q(f.name)} IN (${f.enum.map((v) => `'${v}'`).join(', ')}))`;
  return sql;
}

function tableSql(r: ResourceDef): string[] {
  const out = [`CREATE TABLE ${q(r.name)} (\n  ${stored(r).map(columnSql).join(',\n  ')}\n);`];
  for (const cols of [...(r.unique ?? [])]) {
    out.push(`ALTER TABLE ${q(r.name)} ADD CONSTRAINT ${q(`${r.name}_${cols.join('_')}_key`)} UNIQUE (${cols.map(q).join(', ')});`);
  }
  for (const cols of r.uniqueCaseInsensitive ?? []) {
    // Text columns compare lowercased; others (a scoping foreign key) as they are.
    const isText = (c: string) => ['Short Text', 'Text'].includes(r.fields.find((f) => f.name === c)?.type ?? '');
    const parts = cols.map((c) => (isText(c) ? `lower(${q(c)})` : q(c)));
    out.push(`CREATE UNIQUE INDEX ${q(`${r.name}_${cols.join('_')}_ci_key`)} ON ${q(r.name)} (${parts.join(', ')});`);
  }
  for (const cols of r.indexes ?? []) {
    out.push(`CREATE INDEX ${q(`${r.name}_${cols.join('_')}_idx`)} ON ${q(r.name)} (${cols.map(q).join(', ')});`);
  }
  return out;
}

function foreignKeySql(r: ResourceDef): string[] {
  return stored(r)
    .filter((f) => f.type === 'ForeignKey')
    .map((f) => {
      const onDelete = f.onDelete ? ` ON DELETE ${f.onDelete.toUpperCase()}` : '';
      return `ALTER TABLE ${q(r.name)} ADD CONSTRAINT ${q(`${r.name}_${f.name}_fkey`)} FOREIGN KEY (${q(f.name)}) REFERENCES ${q(f.references!)} ("id")${onDelete};`;
    });
}

/** DDL for the given resources: tables first, then foreign keys (so order does not matter). */
export function schemaSql(model: Model, names: string[] = Object.keys(model)): string {
  const resources = names.map((n) => model[n]!);
  return [...resources.flatMap(tableSql), ...resources.flatMap(foreignKeySql)].join('\n') + '\n';
}
