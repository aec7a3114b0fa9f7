import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '@flotilla/model';
import { SQL_TYPES, stored } from './schema.js';
import { createTestDb } from '../../../test/harness.js';

// The migrations and the model must agree: this fails when someone changes one without the other.
describe('database schema', () => {
  let t: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => {
    await t.drop();
  });

  it('has exactly the columns, types and nullability the model declares', async () => {
    const { rows } = await t.db.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ANY($1)`,
      [Object.keys(model)],
    );
    const actual = rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}${r.is_nullable === 'NO' ? ' not null' : ''}`).sort();
    const expected = Object.values(model)
      .flatMap((r) =>
        stored(r).map((f) => `${r.name}.${f.name} ${SQL_TYPES[f.type]}${f.required || f.type === 'Serial' ? ' not null' : ''}`),
      )
      .sort();
    expect(actual).toEqual(expected);
  });

  it('has a foreign key for every ForeignKey field, to the declared resource', async () => {
    const { rows } = await t.db.query<{ tbl: string; col: string; ref: string }>(
      `SELECT tc.table_name AS tbl, kcu.column_name AS col, ccu.table_name AS ref
         FROM information_schema.table_constraints tc
         JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
         JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
        WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public'`,
    );
    const actual = rows.filter((r) => r.tbl in model).map((r) => `${r.tbl}.${r.col} -> ${r.ref}`).sort();
    const expected = Object.values(model)
      .flatMap((r) => stored(r).filter((f) => f.type === 'ForeignKey').map((f) => `${r.name}.${f.name} -> ${f.references}`))
      .sort();
    expect(actual).toEqual(expected);
  });

  it('seeds the device-type catalogue with each slug as its own alias', async () => {
    const { rows } = await t.db.query<{ slug: string; arch: string; led: boolean; has_schema: boolean }>(
      `SELECT dt.slug, ca.slug AS arch, (dt.contract->'data'->>'led')::boolean AS led,
              (dt.contract ? 'configVariables') AS has_schema
         FROM device_type dt JOIN cpu_architecture ca ON ca.id = dt.is_of__cpu_architecture
        WHERE EXISTS (SELECT 1 FROM device_type_alias a WHERE a.device_type = dt.id AND a.is_referenced_by__alias = dt.slug)
        ORDER BY dt.slug`,
    );
    const slugs = rows.map((r) => r.slug);
    for (const s of ['raspberrypi3', 'raspberrypi3-64', 'raspberrypi4-64', 'raspberry-pi', 'fincm3', 'intel-nuc', 'generic-amd64', 'generic-aarch64', 'beaglebone-black', 'jetson-nano']) {
      expect(slugs).toContain(s);
    }
    expect(rows.every((r) => r.has_schema)).toBe(true);
    expect(rows.find((r) => r.slug === 'raspberrypi4-64')).toMatchObject({ arch: 'aarch64', led: true });
    expect(rows.find((r) => r.slug === 'intel-nuc')).toMatchObject({ arch: 'amd64', led: false });
  });
});
