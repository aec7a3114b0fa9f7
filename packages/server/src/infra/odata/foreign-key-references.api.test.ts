import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, CERTIFICATE_BEGIN, CERTIFICATE_END, model, type FieldDef } from '@flotilla/model';
import { bearer, buildTestApp, insertFleet, signUp, type SignedUpUser, type TestApp } from '../../../test/harness.js';
import { featureId, seedDefaultCatalogue } from '../../../test/support/billing-catalogue.js';
import { insertDevice } from '../../../test/support/cloud-link.js';
import { createFleet, deviceTypeId } from '../../../test/support/fleet-helpers.js';

/**
 * Issue 11, security 1: every foreign key written through /v7 (POST, PATCH by id, PATCH by
 * filter; every resource) must name a row the writer may read. Generated from the model:
 * for each foreign-key field, tenant B writes its own row with that field pointing at a row
 * of tenant A (which B cannot read) and at an id that does not exist: both are refused with
 * the same answer and nothing changes.
 */

let t: TestApp;
let a: SignedUpUser;
let b: SignedUpUser;
/** A row of each resource per tenant (undefined where every row of it is readable by anyone). */
type World = Record<string, number | undefined>;
let own: World;
let foreign: World;
/** B's own rows that PATCHes target. */
const patchable: Record<string, number> = {};

const NONEXISTENT = 2_000_000_000;
const fresh = () => `x${randomBytes(4).toString('hex')}`;
const req = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const sql = async (text: string, values: unknown[] = []) => (await t.db.query<{ id: number }>(text, values)).rows[0]!.id;

async function post(user: SignedUpUser, url: string, body: object): Promise<number> {
  const res = await req('POST', url, user.token, body);
  expect(res.statusCode, `${url} ${res.body}`).toBe(201);
  return res.json().id;
}

/** A fleet, release, service, image, device, team and service install of `user`'s organization. */
async function world(user: SignedUpUser): Promise<World> {
  const application = await createFleet(t.app, t.db, user, `Fleet${fresh()}`);
  const release = await post(user, '/v7/release', {
    belongs_to__application: application,
    commit: randomBytes(16).toString('hex'),
    status: 'running',
    source: 'cloud',
    composition: {},
    start_timestamp: new Date().toISOString(),
  });
  const service = await post(user, '/v7/service', { application, service_name: 'main' });
  const image = await post(user, '/v7/image', { is_a_build_of__service: service, status: 'running', start_timestamp: new Date().toISOString(), project_type: 'Dockerfile' });
  const device = (await insertDevice(t.db, application)).id;
  const team = await post(user, '/v7/team', { name: `Team${fresh()}`, belongs_to__organization: user.orgId });
  const service_install = await sql('INSERT INTO service_install (device, installs__service) VALUES ($1, $2) RETURNING id', [device, service]);
  const organization_membership = await sql('SELECT id FROM organization_membership WHERE is_member_of__organization = $1', [user.orgId]);
  // An identity provider authorizing the organization (issue 20): its first membership comes with it.
  const identity_provider = await post(user, '/v7/identity_provider', {
    sso_identifier: fresh(),
    entry_point: 'https://idp.example.com/sso',
    issuer: 'https://idp.example.com',
    certificate: `${CERTIFICATE_BEGIN}${randomBytes(300).toString('base64')}${CERTIFICATE_END}`,
    organization_id: user.orgId,
  });
  const identity_provider_membership = await sql('SELECT id FROM identity_provider_membership WHERE is_authorized_by__identity_provider = $1', [identity_provider]);
  return {
    organization: user.orgId,
    user: user.userId,
    application,
    release,
    service,
    image,
    device,
    team,
    service_install,
    organization_membership,
    identity_provider,
    identity_provider_membership,
  };
}

/** Fields each POST needs besides its foreign keys (the required foreign keys come from the world). */
const EXTRA: Record<string, () => Record<string, unknown>> = {
  organization_membership: () => ({}),
  application: () => ({ app_name: `App${fresh()}` }),
  user_application_membership: () => ({}),
  team: () => ({ name: `Team${fresh()}` }),
  team_membership: () => ({}),
  team_application_access: () => ({}),
  invitee__is_invited_to__organization: () => ({ invitee: `${fresh()}@example.com` }),
  invitee__is_invited_to__application: () => ({ invitee: `${fresh()}@example.com` }),
  release: () => ({ commit: randomBytes(16).toString('hex'), status: 'running', source: 'cloud', composition: {}, start_timestamp: new Date().toISOString() }),
  service: () => ({ service_name: fresh() }),
  image: () => ({ status: 'running', start_timestamp: new Date().toISOString(), project_type: 'Dockerfile' }),
  image__is_part_of__release: () => ({}),
  release_tag: () => ({ tag_key: fresh(), value: 'v' }),
  release_asset: () => ({ asset_key: fresh() }),
  application_tag: () => ({ tag_key: fresh(), value: 'v' }),
  organization_membership_tag: () => ({ tag_key: fresh(), value: 'v' }),
  device: () => ({ uuid: randomBytes(16).toString('hex'), device_name: fresh() }),
  device_tag: () => ({ tag_key: fresh(), value: 'v' }),
  application_environment_variable: () => ({ name: `V${fresh()}`, value: 'v' }),
  application_config_variable: () => ({ name: `BALENA_${fresh().toUpperCase()}`, value: 'v' }),
  build_environment_variable: () => ({ name: `V${fresh()}`, value: 'v' }),
  service_environment_variable: () => ({ name: `V${fresh()}`, value: 'v' }),
  device_environment_variable: () => ({ name: `V${fresh()}`, value: 'v' }),
  device_config_variable: () => ({ name: `BALENA_${fresh().toUpperCase()}`, value: 'v' }),
  device_service_environment_variable: () => ({ name: `V${fresh()}`, value: 'v' }),
  credit_bundle: () => ({ original_quantity: 1 }),
  organization_credit_notification: () => ({ is_sent_when_below__threshold: 1 }),
  identity_provider_membership: () => ({}),
  user__has__public_key: () => ({ title: fresh(), public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEnVY3l6yIbIuE4e0qSgKk0+x3y6OeXMvYfNNJbEvHJO' }),
};

const writableOf = (f: FieldDef) => f.writable ?? 'always';
const FOREIGN_KEYS = Object.values(model).flatMap((def) =>
  def.fields.filter((f) => f.type === 'ForeignKey' && !f.secret).map((f) => ({ resource: def.name, field: f, def })),
);

function body(resource: string, field: string, value: number): Record<string, unknown> {
  const def = model[resource]!;
  const out: Record<string, unknown> = { ...EXTRA[resource]!() };
  for (const f of def.fields) {
    if (f.type === 'ForeignKey' && f.required && writableOf(f) !== 'never' && !(f.name in out)) out[f.name] = own[f.references!];
  }
  out[field] = value;
  return out;
}

const rowsOf = async (resource: string) => (await t.db.query(`SELECT * FROM "${resource}" ORDER BY id`)).rows;

beforeAll(async () => {
  t = await buildTestApp();
  a = await signUp(t.app);
  b = await signUp(t.app);
  const roles = {
    organization_membership_role: await sql(`SELECT id FROM organization_membership_role WHERE name = 'member'`),
    application_membership_role: await sql(`SELECT id FROM application_membership_role WHERE name = 'developer'`),
    application_type: await sql('SELECT id FROM application_type ORDER BY id LIMIT 1'),
    cpu_architecture: await sql('SELECT id FROM cpu_architecture ORDER BY id LIMIT 1'),
    // The billing catalogue's features are read by every signed-in user (issue 18).
    feature: await (async () => {
      await seedDefaultCatalogue(t.db);
      return featureId(t.db, CAPABILITIES.credits);
    })(),
  };
  // A private device type nobody outside the platform reads.
  const privateType = await sql(
    `INSERT INTO device_type (slug, name, is_of__cpu_architecture, is_private) SELECT 'private-board', 'Private board', is_of__cpu_architecture, true FROM device_type WHERE slug = 'raspberrypi3' RETURNING id`,
  );
  // An invite names its invitee by e-mail (EXTRA), never by id: no invitee row to point at.
  own = { ...(await world(b)), ...roles, device_type: await deviceTypeId(t.db, 'raspberrypi3'), invitee: undefined };
  foreign = { ...(await world(a)), device_type: privateType };
  patchable.application = own.application!;
  patchable.device = own.device!;
  patchable.identity_provider_membership = own.identity_provider_membership!;
  patchable.organization_membership = await sql('SELECT id FROM organization_membership WHERE is_member_of__organization = $1', [b.orgId]);
  patchable.user_application_membership = await sql(
    'INSERT INTO user_application_membership ("user", is_member_of__application, application_membership_role) VALUES ($1, $2, $3) RETURNING id',
    [b.userId, own.application, roles.application_membership_role],
  );
  patchable.team_application_access = await post(b, '/v7/team_application_access', {
    team: own.team,
    grants_access_to__application: own.application,
    application_membership_role: roles.application_membership_role,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('every foreign key written through /v7 names a row the writer may read', () => {
  it('covers every writable foreign key of the model', () => {
    for (const { resource, field } of FOREIGN_KEYS) {
      if (writableOf(field) === 'never') continue;
      expect(EXTRA[resource], `no POST fixture for ${resource}`).toBeDefined();
      expect(field.references! in own, `no row of ${field.references} for ${resource}.${field.name}`).toBe(true);
      if (writableOf(field) === 'always') expect(patchable[resource], `no row of ${resource} to PATCH`).toBeDefined();
    }
  });

  for (const { resource, field } of FOREIGN_KEYS) {
    const name = `${resource}.${field.name} → ${field.references}`;
    if (writableOf(field) === 'never') {
      it(`${name}: not writable at all`, async () => {
        const before = await rowsOf(resource);
        const res = await req('POST', `/v7/${resource}`, b.token, { [field.name]: NONEXISTENT });
        expect([400, 401]).toContain(res.statusCode);
        expect(await rowsOf(resource)).toEqual(before);
      });
      continue;
    }

    it(`${name}: POST referring to a row B cannot read, or to none, is refused alike`, async () => {
      const before = await rowsOf(resource);
      const missing = await req('POST', `/v7/${resource}`, b.token, body(resource, field.name, NONEXISTENT));
      const theirs = foreign[field.references!];
      if (theirs === undefined) {
        // Everyone reads every row of the target (reference data): nothing to hide, only refused.
        expect(missing.statusCode, missing.body).toBeGreaterThanOrEqual(400);
        expect(missing.statusCode, missing.body).toBeLessThan(500);
      } else {
        // A rule may answer its own 400 for such a field (a device's OS releases): the same for both.
        const refusal = t.app.context.rules.referenceMessage(resource, field.name);
        expect(missing.statusCode, missing.body).toBe(refusal === undefined ? 401 : 400);
        const res = await req('POST', `/v7/${resource}`, b.token, body(resource, field.name, theirs));
        expect(res.statusCode, res.body).toBe(missing.statusCode);
        expect(res.body).toBe(missing.body);
      }
      expect(await rowsOf(resource)).toEqual(before);
    });

    if (writableOf(field) !== 'always') continue;
    it(`${name}: PATCH by id and by filter referring to a row B cannot read, or to none, is refused alike`, async () => {
      const id = patchable[resource]!;
      const before = await rowsOf(resource);
      const theirs = foreign[field.references!];
      for (const value of [NONEXISTENT, ...(theirs !== undefined ? [theirs] : [])]) {
        for (const url of [`/v7/${resource}(${id})`, `/v7/${resource}?$filter=id eq ${id}`]) {
          const res = await req('PATCH', url, b.token, { [field.name]: value });
          if (theirs === undefined) {
            expect(res.statusCode, `${url} ${value} ${res.body}`).toBeGreaterThanOrEqual(400);
            expect(res.statusCode, `${url} ${value} ${res.body}`).toBeLessThan(500);
          } else {
            const refusal = t.app.context.rules.referenceMessage(resource, field.name);
            expect(res.statusCode, `${url} ${value} ${res.body}`).toBe(refusal === undefined ? 401 : 400);
            expect(res.json()).toBe(refusal ?? 'Unauthorized');
          }
        }
      }
      expect(await rowsOf(resource)).toEqual(before);
    });
  }
});

describe("a device's host OS and supervisor releases", () => {
  /** A release of a fleet of A's organization, with fleet columns a client cannot set. */
  async function osRelease(appName: string, deviceType: string, fleet: Record<string, unknown>): Promise<number> {
    const application = await insertFleet(t.db, a, appName, { is_for__device_type: await deviceTypeId(t.db, deviceType), ...fleet });
    return sql(`INSERT INTO release (belongs_to__application, commit, status, composition) VALUES ($1, $2, 'success', '{}') RETURNING id`, [
      application,
      randomBytes(16).toString('hex'),
    ]);
  }
  const device = async () => (await t.db.query('SELECT should_be_operated_by__release AS host, should_be_managed_by__release AS supervisor FROM device WHERE id = $1', [own.device])).rows[0];

  it('name only releases of the public host-OS fleet of the device type and the public supervisor block of its architecture', async () => {
    const host = await osRelease(`rpi3-os-${fresh()}`, 'raspberrypi3', { is_host: true, is_public: true });
    const otherTypeHost = await osRelease(`nuc-os-${fresh()}`, 'intel-nuc', { is_host: true, is_public: true });
    const privateHost = await osRelease(`private-os-${fresh()}`, 'raspberrypi3', { is_host: true, is_public: false });
    const supervisor = await osRelease(`armv7hf-${fresh()}-Supervisor`, 'raspberrypi3', { is_public: true, is_of__class: 'block' });
    const otherArchSupervisor = await osRelease(`amd64-${fresh()}-supervisor`, 'intel-nuc', { is_public: true, is_of__class: 'block' });
    const publicBlock = await osRelease(`block-${fresh()}`, 'raspberrypi3', { is_public: true, is_of__class: 'block' });
    const before = await device();
    const patch = (body: object) => req('PATCH', `/v7/device(${own.device})`, b.token, body);

    // B's own release of its own fleet is readable, but not an OS or supervisor release.
    for (const [field, value, message] of [
      ['should_be_operated_by__release', own.release, 'OS version not supported for device type'],
      ['should_be_operated_by__release', otherTypeHost, 'OS version not supported for device type'],
      ['should_be_managed_by__release', own.release, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
      ['should_be_managed_by__release', otherArchSupervisor, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
      ['should_be_managed_by__release', host, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
    ] as const) {
      const res = await patch({ [field]: value });
      expect(res.statusCode, `${field} ${value} ${res.body}`).toBe(400);
      expect(res.json()).toBe(message);
    }
    // A private host-OS fleet's release, or one of a public block that is no supervisor, is
    // not readable: refused with the same message as any release outside the catalogue.
    for (const [field, value, message] of [
      ['should_be_operated_by__release', privateHost, 'OS version not supported for device type'],
      ['should_be_managed_by__release', publicBlock, "A device's supervisor release must be a release of the public supervisor block of its CPU architecture"],
    ] as const) {
      const res = await patch({ [field]: value });
      expect([res.statusCode, res.json()], `${field} ${value}`).toEqual([400, message]);
    }
    expect(await device()).toEqual(before);

    expect((await patch({ should_be_operated_by__release: host, should_be_managed_by__release: supervisor })).statusCode).toBe(200);
    expect(await device()).toEqual({ host, supervisor });
    expect((await patch({ should_be_operated_by__release: null, should_be_managed_by__release: null })).statusCode).toBe(200);
  });
});
