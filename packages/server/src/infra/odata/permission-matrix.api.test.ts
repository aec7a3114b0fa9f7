import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_ALIAS, conditionsFor, model, type Action } from '@flotilla/model';
import { asRoot, odataPost, odataRead, type DataContext } from './index.js';
import type { Db } from '../db/db.js';
import { bearer, buildTestApp, type TestApp } from '../../../test/harness.js';
import { buildWorld, FIXTURES, type Caller, type Fixture, type World } from '../../../test/support/fixtures.js';

// Issue 3: a permission matrix generated from the model. For every resource in `model` ×
// every role (as a caller in one fixture world) × read/create/update/delete, the expected
// answer is computed from the role table — `conditionsFor` gives true/false, or OData
// conditions that are evaluated independently, as root, against the very row concerned
// (`GET /<resource>(<id>)?$filter=<condition with the caller's actor id>`) — and compared
// with what the HTTP API answers to that caller. A resource added to the model without a
// fixture builder in support/fixtures.ts fails here.

let t: TestApp;
let w: World;

/** The world's roles, in the order of the matrix (labels must match support/fixtures.ts). */
const ROLE_LABELS = [
  'anonymous',
  'user without relation',
  'organization administrator',
  'organization member',
  'fleet observer',
  'fleet operator',
  'fleet developer',
  'fleet administrator',
  'fleet developer via team',
  'platform administrator',
  'support agent',
] as const;

const ROOT: DataContext = asRoot({ actorId: null, permissions: [] });

/** OData literal of the caller's actor id; anonymous has none (`null` never equals an id). */
const actorLiteral = (c: Caller) => (c.actorId === null ? 'null' : String(c.actorId));

type Expectation = { anyRule: boolean; allowed: boolean };

/** Whether the model lets `caller` do `action` on row `id`, evaluated as root. */
async function expected(db: Db, caller: Caller, resource: string, action: Action, id: number): Promise<Expectation> {
  const c = conditionsFor(caller.permissions, resource, action);
  if (c === true) return { anyRule: true, allowed: true };
  if (c === false) return { anyRule: false, allowed: false };
  for (const cond of c) {
    const filter = cond.split(ACTOR_ALIAS).join(actorLiteral(caller));
    const rows = await odataRead(db, ROOT, `/${resource}(${id})?$select=id&$filter=${encodeURIComponent(filter)}`);
    if (rows.length > 0) return { anyRule: true, allowed: true };
  }
  return { anyRule: true, allowed: false };
}

/**
 * Issue 11, security 1: every foreign key a caller writes must name a row the caller may read
 * (else 401, whatever the create or update rule says). False when one does not.
 */
async function referencesReadable(caller: Caller, resource: string, body: Record<string, unknown>): Promise<boolean> {
  for (const f of model[resource]!.fields) {
    const value = body[f.name];
    if (f.type !== 'ForeignKey' || !f.references || typeof value !== 'number') continue;
    if (!(await expected(t.db, caller, f.references, 'read', value)).allowed) return false;
  }
  return true;
}

function request(caller: Caller, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: caller.token === null ? {} : bearer(caller.token), ...(payload ? { payload } : {}) });
}

const exists = async (resource: string, id: number) => (await t.db.query(`SELECT 1 FROM "${resource}" WHERE id = $1`, [id])).rowCount === 1;
const column = async (resource: string, field: string, id: number) =>
  (await t.db.query<{ v: unknown }>(`SELECT "${field}" AS v FROM "${resource}" WHERE id = $1`, [id])).rows[0]?.v;

const what = (resource: string, caller: Caller, verb: string, e: Expectation) =>
  `${verb} ${resource} as ${caller.label}: model says ${e.allowed ? 'allowed' : e.anyRule ? 'denied for this row' : 'no rule'}`;

async function checkRead(resource: string, caller: Caller, id: number) {
  const e = await expected(t.db, caller, resource, 'read', id);
  const res = await request(caller, 'GET', `/v7/${resource}(${id})?$select=id`);
  if (!e.anyRule) {
    expect(res.statusCode, `${what(resource, caller, 'read', e)}; got ${res.body}`).toBe(401);
    return;
  }
  expect(res.statusCode, `${what(resource, caller, 'read', e)}; got ${res.body}`).toBe(200);
  expect(res.json(), what(resource, caller, 'read', e)).toEqual({ d: e.allowed ? [{ id }] : [] });
}

async function checkUpdate(resource: string, fx: Fixture, caller: Caller, id: number) {
  const e = await expected(t.db, caller, resource, 'update', id);
  if (!fx.update) {
    // Nothing is writable after creation: only the permission answer can be observed.
    const res = await request(caller, 'PATCH', `/v7/${resource}(${id})`, {});
    if (!e.anyRule) expect(res.statusCode, `${what(resource, caller, 'update', e)}; got ${res.body}`).toBe(401);
    else expect(res.statusCode, `${what(resource, caller, 'update', e)}; got ${res.body}`).toBe(200);
    return;
  }
  const { field } = fx.update;
  const before = await column(resource, field, id);
  const value = fx.update.value(w, before);
  if (e.anyRule && !(await referencesReadable(caller, resource, { [field]: value }))) e.allowed = e.anyRule = false;
  try {
    const res = await request(caller, 'PATCH', `/v7/${resource}(${id})`, { [field]: value });
    expect(res.statusCode, `${what(resource, caller, 'update', e)}; got ${res.body}`).toBe(e.anyRule ? 200 : 401);
    const after = await column(resource, field, id);
    expect(after, `${what(resource, caller, 'update', e)}: ${field} ${e.allowed ? 'should' : 'should not'} change`).toEqual(e.allowed ? value : before);
  } finally {
    await t.db.query(`UPDATE "${resource}" SET "${field}" = $1 WHERE id = $2`, [before, id]);
  }
}

async function checkDelete(resource: string, fx: Fixture, caller: Caller) {
  const id = fx.fresh ? await fx.fresh(w) : w.sample[resource]!;
  const e = await expected(t.db, caller, resource, 'delete', id);
  const res = await request(caller, 'DELETE', `/v7/${resource}(${id})`);
  const msg = `${what(resource, caller, 'delete', e)}; got ${res.statusCode} ${res.body}`;
  if (!e.anyRule) expect(res.statusCode, msg).toBe(401);
  else if (e.allowed && !fx.fresh) {
    expect(fx.deleteRejectedWith, `${resource}: a fixture without fresh() must list deleteRejectedWith`).toBeDefined();
    expect(res.statusCode, `${msg} (listed rule: ${fx.deleteRejectedWith!.reason})`).toBe(fx.deleteRejectedWith!.status);
    expect(await exists(resource, id), msg).toBe(true);
    return;
  } else expect(res.statusCode, msg).toBe(200);
  expect(await exists(resource, id), `${msg}: the row should ${e.allowed ? '' : 'not '}be gone`).toBe(!e.allowed);
}

class Rollback extends Error {}

/** The create condition evaluated as root on the row the body makes (inserted, then rolled back). */
async function expectedCreate(caller: Caller, resource: string, body: Record<string, unknown>): Promise<Expectation> {
  const c = conditionsFor(caller.permissions, resource, 'create');
  if (typeof c === 'boolean') return { anyRule: c, allowed: c };
  let result: Expectation | undefined;
  await t.db
    .tx(async (tx) => {
      const { id } = await odataPost(t.app.context, tx, asRoot({ actorId: caller.actorId, permissions: [] }), `/${resource}`, structuredClone(body));
      result = await expected(tx, caller, resource, 'create', id);
      throw new Rollback();
    })
    .catch((err: unknown) => {
      if (!(err instanceof Rollback)) throw err;
    });
  return result!;
}

async function checkCreate(resource: string, fx: Fixture, caller: Caller) {
  const body = await fx.body(w);
  const e = await expectedCreate(caller, resource, body);
  if (e.allowed && !(await referencesReadable(caller, resource, body))) e.allowed = false;
  const res = await request(caller, 'POST', `/v7/${resource}`, body);
  const msg = `${what(resource, caller, 'create', e)}; got ${res.statusCode} ${res.body}`;
  if (!e.allowed) {
    expect(res.statusCode, msg).toBe(401);
    return;
  }
  const rejected = fx.createRejectedFor ? fx.createRejectedFor(caller, w) : fx.createRejectedWith;
  if (rejected) {
    expect(res.statusCode, `${msg} (listed rule: ${rejected.reason})`).toBe(rejected.status);
    return;
  }
  expect(res.statusCode, msg).toBe(201);
  expect(await exists(resource, res.json().id), msg).toBe(true);
}

beforeAll(async () => {
  // Billing on: the credit purchase rule (issue 18) refuses every purchase while billing is off.
  t = await buildTestApp({ billing: { enabled: true } });
  w = await buildWorld(t.app, t.db);
  expect(w.callers.map((c) => c.label)).toEqual(ROLE_LABELS);
});
afterAll(async () => {
  await t?.close();
});

describe('permission matrix', () => {
  it('has a fixture builder for exactly the resources of the model', () => {
    const missing = Object.keys(model).filter((r) => !(r in FIXTURES));
    const stale = Object.keys(FIXTURES).filter((r) => !(r in model));
    expect(missing, `add a fixture builder to packages/server/test/support/fixtures.ts for: ${missing.join(', ')}`).toEqual([]);
    expect(stale, `fixtures for resources no longer in the model: ${stale.join(', ')}`).toEqual([]);
  });

  for (const resource of Object.keys(model)) {
    ROLE_LABELS.forEach((label, i) => {
      it(`${resource} × ${label}`, async () => {
        const fx = FIXTURES[resource];
        if (!fx) throw new Error(`No fixture builder for resource '${resource}': add one to packages/server/test/support/fixtures.ts`);
        const caller = w.callers[i]!;
        const id = w.sample[resource]!;
        await checkRead(resource, caller, id);
        await checkUpdate(resource, fx, caller, id);
        await checkDelete(resource, fx, caller);
        await checkCreate(resource, fx, caller);
      });
    });
  }
});
