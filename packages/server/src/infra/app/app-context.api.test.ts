import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { API_KEYS_CHANGED } from '../auth/api-key-cache.js';
import { InProcessBus } from '../bus/bus.js';
import type { Db, PoolDb } from '../db/db.js';
import { BadRequestError } from '../errors.js';
import { Mailer } from '../mail/mailer.js';
import { DEVICE_STATE_CHANGED } from '../../features/device-api/state-changes.js';
import { bearer, createTestDb, signUp, TEST_JWT_SECRET, type SignedUpUser } from '../../../test/harness.js';
import { insertDevice, type TestDevice } from '../../../test/support/cloud-link.js';
import { createFleet, requester } from '../../../test/support/fleet-helpers.js';

// Issue 13 item 2: each buildApp has its own app context (rules, bus, mailer, clock,
// config, caches). Two apps in one process, on two databases, with their own bus, mailer
// (told apart by their public URL) and registry host: what one app's writes do reaches
// only that app's mailer, bus and caches.

interface Node {
  name: string;
  app: FastifyInstance;
  db: PoolDb;
  drop: () => Promise<void>;
  bus: InProcessBus;
  mailer: Mailer;
  publicUrl: string;
  registryHost: string;
  /** What this app's bus carried, by channel. */
  heard: { channel: string; message: unknown }[];
  owner: SignedUpUser;
  fleet: number;
  device: TestDevice;
}

// Both apps share one clock, an hour ahead of real time (so a verification mail may be sent
// again right after sign-up), moved by the tests.
let offset = 3_600_000;
const clock = () => Date.now() + offset;

let a: Node;
let b: Node;

async function node(name: string): Promise<Node> {
  const { db, drop } = await createTestDb();
  const bus = new InProcessBus();
  const publicUrl = `https://${name}.flotilla.test`;
  const mailer = new Mailer({ db, publicUrl });
  const registryHost = `registry.${name}.test`;
  const app = await buildApp({ db, jwtSecret: TEST_JWT_SECRET, bus, mailer, registryHost, clock });
  const heard: Node['heard'] = [];
  for (const channel of [DEVICE_STATE_CHANGED, API_KEYS_CHANGED]) await bus.subscribe(channel, (message) => heard.push({ channel, message }));
  return { name, app, db, drop, bus, mailer, publicUrl, registryHost, heard, owner: undefined!, fleet: 0, device: undefined! };
}

/** The same rows, in the same order, in both databases (so their ids coincide). */
async function populate(n: Node): Promise<void> {
  n.owner = await signUp(n.app, `owner@${n.name}.test`);
  n.fleet = await createFleet(n.app, n.db, n.owner, 'SharedName');
  n.device = await insertDevice(n.db, n.fleet);
}

const req = (n: Node, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => requester(n.app)(n.owner.token, method, url, payload);
const poll = (n: Node, etag?: string) =>
  n.app.inject({ method: 'GET', url: `/device/v3/${n.device.uuid}/state`, headers: { ...bearer(n.device.key), ...(etag ? { 'if-none-match': etag } : {}) } });

/** The queries `db` is sent while `fn` runs (the heartbeat batch's left out). */
async function queriesDuring(db: Db, fn: () => Promise<unknown>): Promise<string[]> {
  const queries: string[] = [];
  const original = db.query.bind(db);
  db.query = ((sql: string, ...rest: unknown[]) => {
    if (!sql.includes('api_heartbeat_at')) queries.push(sql);
    return (original as (...args: unknown[]) => unknown)(sql, ...rest);
  }) as Db['query'];
  try {
    await fn();
  } finally {
    db.query = original;
  }
  return queries;
}

/** Lets in-process bus deliveries (setImmediate) and after-commit work settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

beforeAll(async () => {
  a = await node('a');
  b = await node('b');
  await populate(a);
  await populate(b);
});
afterAll(async () => {
  for (const n of [a, b]) {
    if (!n) continue;
    await n.app.close();
    await n.mailer.close();
    await n.bus.close();
    await n.drop();
  }
});

describe('two apps in one process', () => {
  it('are arranged so that the same ids name rows in both databases', () => {
    expect(a.device.id).toBe(b.device.id);
    expect(a.fleet).toBe(b.fleet);
  });

  it('each mails invitations through its own mailer', async () => {
    for (const n of [a, b]) {
      const email = `invitee.${n.name}@example.com`;
      const role = (await n.db.query<{ id: number }>(`SELECT id FROM organization_membership_role WHERE name = 'member'`)).rows[0]!.id;
      const res = await req(n, 'POST', '/v7/invitee__is_invited_to__organization', { invitee: email, is_invited_to__organization: n.owner.orgId, organization_membership_role: role });
      expect(res.statusCode, res.body).toBe(201);
      const { rows } = await n.db.query<{ text_body: string }>('SELECT text_body FROM email_outbox WHERE recipient = $1', [email]);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.text_body).toContain(`${n.publicUrl}/organization/invitation/`);
    }
  });

  it('each resends verification mail through its own mailer', async () => {
    for (const n of [a, b]) {
      offset += 3_600_000;
      const res = await req(n, 'PATCH', `/v7/user(${n.owner.userId})`, { has_been_sent_verification_email: true });
      expect(res.statusCode, res.body).toBe(200);
      const { rows } = await n.db.query<{ text_body: string }>('SELECT text_body FROM email_outbox WHERE recipient = $1 ORDER BY id', [n.owner.email]);
      // The sign-up's mail and the resent one, both with this app's links.
      expect(rows).toHaveLength(2);
      for (const r of rows) expect(r.text_body).toContain(n.publicUrl);
    }
  });

  it('each names image locations with its own registry host', async () => {
    for (const n of [a, b]) {
      const service = await req(n, 'POST', '/v7/service', { application: n.fleet, service_name: 'main' });
      expect(service.statusCode, service.body).toBe(201);
      const image = await req(n, 'POST', '/v7/image', { is_a_build_of__service: service.json().id, status: 'running', start_timestamp: new Date().toISOString(), project_type: 'Dockerfile' });
      expect(image.statusCode, image.body).toBe(201);
      expect(image.json().is_stored_at__image_location).toMatch(new RegExp(`^${n.registryHost.replaceAll('.', '\\.')}/v2/[0-9a-f]{32}$`));
    }
  });

  it('announce target-state and API key changes on their own bus only', async () => {
    for (const [writer, other] of [
      [a, b],
      [b, a],
    ] as const) {
      await settle(); // what earlier tests' writes announced
      writer.heard.length = 0;
      other.heard.length = 0;
      const renamed = await req(writer, 'PATCH', `/v7/device(${writer.device.id})`, { device_name: `renamed-by-${writer.name}` });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const key = await req(writer, 'POST', '/api-key/user/full', { name: `k-${writer.name}` });
      expect(key.statusCode, key.body).toBe(200);
      const keys = await req(writer, 'GET', `/v7/api_key?$select=id&$filter=name eq 'k-${writer.name}'`);
      expect((await req(writer, 'DELETE', `/v7/api_key(${keys.json().d[0].id})`)).statusCode).toBe(200);
      await vi.waitFor(() => expect(writer.heard.map((h) => h.channel).sort()).toEqual([API_KEYS_CHANGED, DEVICE_STATE_CHANGED]));
      expect(writer.heard).toContainEqual({ channel: DEVICE_STATE_CHANGED, message: { deviceIds: [writer.device.id] } });
      await settle();
      expect(other.heard).toEqual([]);
    }
  });

  it("keep their caches to themselves: a write in one app does not drop the other's cached target state", async () => {
    const first = await poll(b);
    expect(first.statusCode, first.body).toBe(200);
    const etag = first.headers.etag as string;
    // Cached: an unchanged poll reads nothing.
    expect(await queriesDuring(b.db, async () => expect((await poll(b, etag)).statusCode).toBe(304))).toEqual([]);
    // The device with the same id, renamed in the other app's database.
    const renamed = await req(a, 'PATCH', `/v7/device(${a.device.id})`, { device_name: 'renamed-again' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await settle();
    expect(await queriesDuring(b.db, async () => expect((await poll(b, etag)).statusCode).toBe(304))).toEqual([]);
    // Its own write does drop it.
    expect((await req(b, 'PATCH', `/v7/device(${b.device.id})`, { device_name: 'renamed-in-b' })).statusCode).toBe(200);
    expect(await queriesDuring(b.db, async () => expect((await poll(b, etag)).statusCode).toBe(200))).not.toEqual([]);
  });

  it('run their own business rules: a rule registered on one app does not run in the other', async () => {
    const off = a.app.context.rules.register('organization', 'PATCH', {
      before() {
        throw new BadRequestError('refused by a rule of app a');
      },
    });
    try {
      for (const n of [a, b]) {
        const res = await req(n, 'PATCH', `/v7/organization(${n.owner.orgId})`, { name: `renamed ${n.name}` });
        if (n === a) {
          expect(res.statusCode).toBe(400);
          expect(res.json()).toBe('refused by a rule of app a');
        } else {
          expect(res.statusCode, res.body).toBe(200);
        }
      }
    } finally {
      off();
    }
    expect(a.app.context.rules).not.toBe(b.app.context.rules);
    expect(a.app.context.clock).toBe(clock);
  });

  it("word constraint violations with their own rules' messages", async () => {
    a.app.context.rules.registerConstraintMessage('application_tag_application_tag_key_key', 'app a says: this fleet has that tag');
    for (const n of [a, b]) {
      const tag = { application: n.fleet, tag_key: 'twice', value: 'v' };
      expect((await req(n, 'POST', '/v7/application_tag', tag)).statusCode).toBe(201);
      const again = await req(n, 'POST', '/v7/application_tag', tag);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toBe(n === a ? 'app a says: this fleet has that tag' : 'Unique key constraint violated');
    }
  });
});

describe("the app's one clock", () => {
  it('dates what rules write and judges what they check: support access and invitation expiry', async () => {
    const saved = offset;
    offset = 400 * 24 * 3_600_000; // the app's clock 400 days ahead of real time
    try {
      // A date in the future of real time but in the past of the app's clock is refused.
      const inAYear = new Date(Date.now() + 365 * 24 * 3_600_000).toISOString();
      const grant = await req(a, 'PATCH', `/v7/device(${a.device.id})`, { is_accessible_by_support_until__date: inAYear });
      expect(grant.statusCode).toBe(400);
      expect(grant.json()).toBe('Support access can only be granted until a date in the future');
      const fleetGrant = await req(a, 'PATCH', `/v7/application(${a.fleet})`, { is_accessible_by_support_until__date: inAYear });
      expect(fleetGrant.statusCode).toBe(400);

      // An invitation expires a week after the app's now, not the machine's.
      const orgId = (await a.db.query<{ organization: number }>('SELECT organization FROM application WHERE id = $1', [a.fleet])).rows[0]!.organization;
      const invite = await req(a, 'POST', '/v7/invitee__is_invited_to__organization', { invitee: 'clock@a.test', is_invited_to__organization: orgId });
      expect(invite.statusCode, invite.body).toBe(201);
      const expiry = Date.parse((await a.db.query<{ expiry: Date }>('SELECT expiry FROM invitee__is_invited_to__organization WHERE id = $1', [invite.json().id])).rows[0]!.expiry.toISOString());
      expect(Math.abs(expiry - (clock() + 7 * 24 * 3_600_000))).toBeLessThan(60_000);
    } finally {
      offset = saved;
    }
  });
});
