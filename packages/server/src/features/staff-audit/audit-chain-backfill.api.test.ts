import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDb } from '../../../test/harness.js';
import { verifyChain } from './staff-audit.repository.js';

// Migration 0046 chains the staff reads recorded before it: its backfill block, run over rows
// inserted without a chain (as 0041 wrote them), leaves every organization's chain verified.

let t: Awaited<ReturnType<typeof createTestDb>>;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.drop();
});

it('backfills the hash chain of rows written before migration 0046', async () => {
  const sql = await readFile(new URL('../../../migrations/0046_audit_log.sql', import.meta.url), 'utf8');
  const backfill = /DO \$\$[\s\S]*?END \$\$;/.exec(sql)![0];
  const orgs = (await t.db.query<{ id: number }>(`INSERT INTO organization (name, handle) VALUES ('A', 'backfill_a'), ('B', 'backfill_b') RETURNING id`)).rows.map((r) => r.id);
  // Rows as 0041 wrote them: no trigger, no hashes.
  await t.db.query('ALTER TABLE audit_event DISABLE TRIGGER audit_event_chain');
  await t.db.query('ALTER TABLE audit_event ALTER COLUMN hash DROP NOT NULL');
  for (let i = 0; i < 6; i++) {
    await t.db.query(
      `INSERT INTO audit_event (organization, kind, performed_as_username, performed_by_username, staff_role, method, route, resource, request, request_id)
       VALUES ($1, 'staff_read', 'agent', 'agent', 'support_agent', 'GET', '/v7/device', 'device', $2, $3)`,
      [orgs[i % 2], `/v7/device(${i})`, `req-${i}`],
    );
  }
  await t.db.query(backfill);
  await t.db.query('ALTER TABLE audit_event ALTER COLUMN hash SET NOT NULL');
  await t.db.query('ALTER TABLE audit_event ENABLE TRIGGER audit_event_chain');
  for (const org of orgs) expect(await verifyChain(t.db, org)).toMatchObject({ rows: 3, broken: null });
  // New rows continue the backfilled chain.
  await t.db.query(
    `INSERT INTO audit_event (organization, kind, performed_as_username, performed_by_username, method, route, request, request_id)
     VALUES ($1, 'action', 'u', 'u', 'POST', '/x', '/x', 'r')`,
    [orgs[0]],
  );
  expect(await verifyChain(t.db, orgs[0]!)).toMatchObject({ rows: 4, broken: null });
});
