import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { CAPABILITIES, ROLES } from '@flotilla/model';
import type { Db, PoolDb } from '../../src/infra/db/db.js';
import { createUser } from '../../src/features/users/user.service.js';
import { insertFleet, signUp, type SignedUpUser } from '../harness.js';
import { featureId, seedDefaultCatalogue, subscribe } from './billing-catalogue.js';

/**
 * The fixture world of the permission matrix (permission-matrix.api.test.ts) and one fixture
 * builder per model resource: a sample row in the world, a fresh row for DELETE, a POST
 * body and a harmless PATCH. Rows are written as root (direct SQL), never through the
 * permission checks under test.
 */

export interface Caller {
  /** Label used in test names. */
  label: string;
  /** null: anonymous (no credential). */
  token: string | null;
  actorId: number | null;
  userId: number | null;
  /** The caller's permission set, taken from the model's role table. */
  permissions: readonly string[];
}

export interface World {
  db: PoolDb;
  orgId: number;
  fleetId: number;
  teamId: number;
  deviceTypeId: number;
  orgRoles: Record<'administrator' | 'member', number>;
  fleetRoles: Record<'observer' | 'operator' | 'developer' | 'administrator', number>;
  orgAdmin: SignedUpUser;
  member: SignedUpUser;
  /** The users holding each fleet role on the world fleet through a fleet membership. */
  fleetUsers: Record<'observer' | 'operator' | 'developer' | 'administrator', number>;
  callers: Caller[];
  /** Sample rows in the world, by resource. */
  sample: Record<string, number>;
}

export interface Fixture {
  /** The row the read and update cases look at (created once in the world). */
  sample(w: World): Promise<number>;
  /**
   * A new row in the same kind of situation, for one DELETE case. Absent when no spare row
   * can exist (then the case deletes the sample row and `deleteRejectedWith` must say what
   * the business rules answer when the delete is permitted).
   */
  fresh?(w: World): Promise<number>;
  deleteRejectedWith?: { status: number; reason: string };
  /** A valid POST body (may create prerequisite rows as root; unique on every call). */
  body(w: World): Promise<Record<string, unknown>>;
  /**
   * When the create is permitted but the business rules (or the field rules of the model)
   * refuse it anyway: the status and why. Listed here so the matrix stays honest.
   */
  createRejectedWith?: { status: number; reason: string };
  /**
   * Like createRejectedWith, for a rule that refuses some callers the role table lets create
   * (a hook that checks a body field which is not a column): the status and why, or undefined
   * when this caller's create succeeds.
   */
  createRejectedFor?(caller: Caller, w: World): { status: number; reason: string } | undefined;
  /**
   * A harmless PATCH on the sample row: a writable field and the value to set (restored
   * afterwards). Absent when the resource has no field writable after creation; the case
   * then sends an empty PATCH and checks only the permission answer.
   */
  update?: { field: string; value(w: World, current: unknown): unknown };
}

const uid = () => randomBytes(5).toString('hex');

/** The world member's membership of the world organization (the parent of member tags). */
const worldMembership = (w: World) =>
  idOf(w.db, 'SELECT id FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [w.member.userId, w.orgId]);

/** Inserts a user (and its actor) directly; optionally a member of the world organization. */
export async function insertUser(db: Db, orgId?: number, roleId?: number): Promise<{ userId: number; actorId: number }> {
  const actorId = (await db.query<{ id: number }>('INSERT INTO actor DEFAULT VALUES RETURNING id')).rows[0]!.id;
  const name = `spare_${uid()}`;
  const userId = (
    await db.query<{ id: number }>('INSERT INTO "user" (actor, username, email) VALUES ($1, $2, $3) RETURNING id', [actorId, name, `${name}@example.com`])
  ).rows[0]!.id;
  if (orgId !== undefined) {
    await db.query('INSERT INTO organization_membership ("user", is_member_of__organization, organization_membership_role) VALUES ($1, $2, $3)', [
      userId,
      orgId,
      roleId,
    ]);
  }
  return { userId, actorId };
}

async function insert(db: Db, table: string, cols: Record<string, unknown>): Promise<number> {
  const names = Object.keys(cols);
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    Object.values(cols),
  );
  return rows[0]!.id;
}

const idOf = async (db: Db, sql: string, params: unknown[] = []) => (await db.query<{ id: number }>(sql, params)).rows[0]!.id;

const spareMember = async (w: World) => (await insertUser(w.db, w.orgId, w.orgRoles.member)).userId;

async function insertInvite(w: World, kind: 'organization' | 'application'): Promise<number> {
  const common = {
    invitee: await insert(w.db, 'invitee', { email: `invitee_${uid()}@example.com` }),
    is_created_by__user: w.orgAdmin.userId,
    token_hash: randomBytes(32).toString('hex'),
    expiry: new Date(Date.now() + 7 * 86_400_000),
  };
  return kind === 'organization'
    ? insert(w.db, 'invitee__is_invited_to__organization', {
        ...common,
        is_invited_to__organization: w.orgId,
        organization_membership_role: w.orgRoles.member,
      })
    : insert(w.db, 'invitee__is_invited_to__application', {
        ...common,
        is_invited_to__application: w.fleetId,
        application_membership_role: w.fleetRoles.observer,
      });
}

/** A release of the world fleet; `running`, so it never becomes a fleet's target release. */
async function insertRelease(w: World): Promise<number> {
  return insert(w.db, 'release', { belongs_to__application: w.fleetId, commit: `${uid()}${uid()}`, status: 'running' });
}

const insertService = (w: World) => insert(w.db, 'service', { application: w.fleetId, service_name: `svc_${uid()}` });

async function insertImage(w: World): Promise<number> {
  return insert(w.db, 'image', { is_a_build_of__service: await insertService(w), status: 'running', is_stored_at__image_location: `registry.test/v2/${uid()}` });
}

async function insertReleaseImage(w: World): Promise<number> {
  return insert(w.db, 'image__is_part_of__release', { image: await insertImage(w), is_part_of__release: await insertRelease(w) });
}

/** A fleet of the world organization shared like the world fleet (memberships, team access). */
async function fleetLikeWorld(w: World, owner: SignedUpUser, fleetUsers: Record<string, number>): Promise<number> {
  const id = await insertFleet(w.db, owner, `Fresh${uid()}`, { organization: w.orgId, slug: `${owner.username}/fresh${uid()}` });
  for (const [role, userId] of Object.entries(fleetUsers)) {
    await insert(w.db, 'user_application_membership', {
      user: userId,
      is_member_of__application: id,
      application_membership_role: w.fleetRoles[role as keyof World['fleetRoles']],
    });
  }
  await insert(w.db, 'team_application_access', { team: w.teamId, grants_access_to__application: id, application_membership_role: w.fleetRoles.developer });
  return id;
}

/** A device of the world fleet, with its own actor. */
async function insertDevice(w: World): Promise<number> {
  return insert(w.db, 'device', {
    actor: await idOf(w.db, 'INSERT INTO actor DEFAULT VALUES RETURNING id'),
    uuid: randomBytes(16).toString('hex'),
    device_name: `device-${uid()}`,
    belongs_to__application: w.fleetId,
    is_of__device_type: w.deviceTypeId,
  });
}

/** A service of the world fleet installed on a device of the world fleet (variables' service overrides). */
async function insertVariableServiceInstall(w: World): Promise<number> {
  return insert(w.db, 'service_install', { device: await insertDevice(w), installs__service: await insertService(w) });
}

/** Fixtures of a variable resource (name/value under a parent), named by `prefix` (config names need a namespace). */
function variableFixture(table: string, parentField: string, parent: (w: World) => Promise<number>, prefix: string): Fixture {
  const row = async (w: World, what: string) => insert(w.db, table, { [parentField]: await parent(w), name: `${prefix}${what}_${uid()}`, value: what });
  return {
    sample: async (w) => row(w, 'SAMPLE'),
    fresh: async (w) => row(w, 'FRESH'),
    body: async (w) => ({ [parentField]: await parent(w), name: `${prefix}MATRIX_${uid()}`, value: 'matrix' }),
    update: { field: 'value', value: () => `value-${uid()}` },
  };
}

const SERVER_MAINTAINED = (what: string) => ({ status: 400, reason: `${what}: its required fields are writable 'never' (server-maintained reference data)` });

async function insertTerminalSession(w: World): Promise<number> {
  return insert(w.db, 'terminal_session', {
    session: `s${uid()}`,
    device: await insertDevice(w),
    user: w.member.userId,
    username: 'matrix',
    target: 'service:main',
    server_instance: 'matrix',
  });
}

/** A staff read in the world organization's audit trail (issue 19; written by the server only). */
function insertAuditEvent(w: World): Promise<number> {
  return insert(w.db, 'audit_event', {
    organization: w.orgId,
    kind: 'staff_read',
    performed_as_username: 'matrix',
    performed_by_username: 'matrix',
    staff_role: 'support_agent',
    method: 'GET',
    route: '/v7/device',
    resource: 'device',
    request: '/v7/device',
    request_id: `r${uid()}`,
  });
}

/** A history row of a variable of the world fleet (written by the server only). */
function insertVariableChange(w: World): Promise<number> {
  return insert(w.db, 'variable_change', {
    application: w.fleetId,
    variable_kind: 'application_environment_variable',
    name: 'VAR_MATRIX',
    action: 'create',
    new_value: 'v',
    actor: w.member.userId,
    actor_name: 'matrix',
  });
}

/** Billing catalogue rows (issue 18): server-maintained; a plan of its own per fixture. */
const insertFeature = (w: World) => insert(w.db, 'feature', { title: 'Matrix feature', slug: `matrix:${uid()}` });
const insertPlan = (w: World) => insert(w.db, 'plan', { title: 'Matrix plan', billing_code: `matrix-${uid()}` });
/** An inactive subscription of the world organization (one active row per organization). */
async function insertSubscription(w: World): Promise<number> {
  return insert(w.db, 'subscription', { is_for__organization: w.orgId, is_for__plan: await insertPlan(w), is_active: false });
}

/**
 * Credits (issue 18 item 7) in the world organization: the default catalogue, the pilot plan
 * (which sells credits) and payment by invoice, so a permitted purchase passes the purchase
 * rule (the matrix app runs with billing on). Returns the credits feature's id.
 */
async function creditsWorld(w: World): Promise<number> {
  await seedDefaultCatalogue(w.db);
  const active = await w.db.query<{ code: string }>(
    'SELECT p.billing_code AS code FROM subscription s JOIN plan p ON p.id = s.is_for__plan WHERE s.is_for__organization = $1 AND s.is_active',
    [w.orgId],
  );
  if (active.rows[0]?.code !== 'pilot-v2') await subscribe(w.db, w.orgId, 'pilot-v2');
  await w.db.query(
    `INSERT INTO billing_account (organization, provider, billing_info) VALUES ($1, 'manual', '{"type":"manual"}')
     ON CONFLICT (organization) DO UPDATE SET billing_info = EXCLUDED.billing_info`,
    [w.orgId],
  );
  return featureId(w.db, CAPABILITIES.credits);
}
async function insertCreditBundle(w: World): Promise<number> {
  return insert(w.db, 'credit_bundle', {
    belongs_to__organization: w.orgId,
    is_for__feature: await creditsWorld(w),
    original_quantity: 1,
    payment_status: 'paid',
    expires_on__date: new Date(Date.now() + 86_400_000),
  });
}
/** A notification of the world organization for a feature of its own (one per organization and feature). */
const insertCreditNotification = async (w: World) =>
  insert(w.db, 'organization_credit_notification', { organization: w.orgId, owns_credit_notification_for__feature: await insertFeature(w), is_sent_when_below__threshold: 3 });

/** A test certificate block (the identity provider rule wants the PEM markers around base64). */
const TEST_CERTIFICATE = `-----BEGIN CERTIFICATE-----\nMIIB${'A'.repeat(60)}\n-----END CERTIFICATE-----`;

/** An organization of the world's administrator on a plan that includes SAML (identity providers, issue 20). */
async function samlOrganization(w: World): Promise<number> {
  const id = await insert(w.db, 'organization', { name: `SSO ${uid()}`, handle: `sso_${uid()}` });
  await insert(w.db, 'organization_membership', { user: w.orgAdmin.userId, is_member_of__organization: id, organization_membership_role: w.orgRoles.administrator });
  await seedDefaultCatalogue(w.db);
  await subscribe(w.db, id, 'enterprise-v2');
  return id;
}

/** An identity provider authorizing the world organization (and `also`, when given). */
async function insertIdentityProvider(w: World, also?: number): Promise<number> {
  const id = await insert(w.db, 'identity_provider', {
    sso_identifier: `matrix-${uid()}`,
    entry_point: 'https://idp.example.com/sso',
    issuer: 'matrix-idp',
    certificate: TEST_CERTIFICATE,
  });
  for (const org of also === undefined ? [w.orgId] : [w.orgId, also]) {
    await insert(w.db, 'identity_provider_membership', { organization: org, is_authorized_by__identity_provider: id });
  }
  return id;
}

const worldIdpMembership = (w: World, provider: number) =>
  idOf(w.db, 'SELECT id FROM identity_provider_membership WHERE is_authorized_by__identity_provider = $1 AND organization = $2', [provider, w.orgId]);

const insertSamlAccount = async (w: World) =>
  insert(w.db, 'saml_account', { belongs_to__user: w.member.userId, was_generated_by__identity_provider: await insertIdentityProvider(w), remote_id: `nameid-${uid()}` });

export const FIXTURES: Record<string, Fixture> = {
  actor: {
    sample: async (w) => w.member.actorId,
    fresh: async (w) => idOf(w.db, 'INSERT INTO actor DEFAULT VALUES RETURNING id'),
    body: async () => ({}),
  },
  user: {
    sample: async (w) => w.member.userId,
    fresh: async (w) => spareMember(w),
    body: async () => ({ first_name: 'Matrix' }),
    createRejectedWith: { status: 400, reason: "username and email are required and writable 'never': users sign up through /user/register" },
    update: { field: 'first_name', value: () => `First${uid()}` },
  },
  api_key: {
    sample: async (w) => insert(w.db, 'api_key', { key: randomBytes(32).toString('hex'), name: 'matrix', is_of__actor: w.member.actorId }),
    fresh: async (w) => insert(w.db, 'api_key', { key: randomBytes(32).toString('hex'), name: 'fresh', is_of__actor: w.member.actorId }),
    body: async () => ({ name: 'matrix-key' }),
    createRejectedWith: { status: 400, reason: "key is required and secret, is_of__actor writable 'never': keys are made by POST /api-key/user/full" },
    update: { field: 'name', value: () => `key${uid()}` },
  },
  organization: {
    sample: async (w) => w.orgId,
    fresh: async (w) => {
      const id = await insert(w.db, 'organization', { name: `Fresh ${uid()}`, handle: `fresh_${uid()}` });
      for (const [user, role] of [
        [w.orgAdmin.userId, w.orgRoles.administrator],
        [w.member.userId, w.orgRoles.member],
      ] as const) {
        await insert(w.db, 'organization_membership', { user, is_member_of__organization: id, organization_membership_role: role });
      }
      return id;
    },
    body: async () => ({ name: `Matrix Org ${uid()}` }),
    update: { field: 'name', value: () => `Renamed ${uid()}` },
  },
  organization_membership_role: {
    sample: async (w) => w.orgRoles.member,
    deleteRejectedWith: { status: 409, reason: 'both seeded roles are referenced (FK restrict) and the enum CHECK allows no spare row' },
    body: async () => ({ name: 'member' }),
    createRejectedWith: SERVER_MAINTAINED('organization_membership_role'),
  },
  organization_membership: {
    sample: async (w) =>
      idOf(w.db, 'SELECT id FROM organization_membership WHERE "user" = $1 AND is_member_of__organization = $2', [await spareMember(w), w.orgId]),
    fresh: async (w) => idOf(w.db, 'SELECT id FROM organization_membership WHERE "user" = $1', [await spareMember(w)]),
    body: async (w) => ({
      user: (await insertUser(w.db)).userId,
      is_member_of__organization: w.orgId,
      organization_membership_role: w.orgRoles.member,
    }),
    update: { field: 'organization_membership_role', value: (w) => w.orgRoles.administrator },
  },
  organization_membership_tag: {
    sample: async (w) =>
      insert(w.db, 'organization_membership_tag', { organization_membership: await worldMembership(w), tag_key: `sample_${uid()}`, value: 'sample' }),
    fresh: async (w) =>
      insert(w.db, 'organization_membership_tag', { organization_membership: await worldMembership(w), tag_key: `fresh_${uid()}`, value: 'fresh' }),
    body: async (w) => ({ organization_membership: await worldMembership(w), tag_key: `matrix_${uid()}`, value: 'matrix' }),
    update: { field: 'value', value: () => `value-${uid()}` },
  },
  cpu_architecture: {
    sample: async (w) => idOf(w.db, `SELECT id FROM cpu_architecture WHERE slug = 'armv7hf'`),
    fresh: async (w) => insert(w.db, 'cpu_architecture', { slug: `arch_${uid()}` }),
    body: async () => ({ slug: `arch_${uid()}` }),
    createRejectedWith: SERVER_MAINTAINED('cpu_architecture'),
  },
  device_type: {
    sample: async (w) => w.deviceTypeId,
    fresh: async (w) =>
      insert(w.db, 'device_type', {
        slug: `dt_${uid()}`,
        name: 'Fresh device type',
        is_of__cpu_architecture: await idOf(w.db, `SELECT id FROM cpu_architecture WHERE slug = 'armv7hf'`),
      }),
    body: async () => ({ slug: `dt_${uid()}`, name: 'Matrix' }),
    createRejectedWith: SERVER_MAINTAINED('device_type'),
  },
  device_type_alias: {
    sample: async (w) => idOf(w.db, 'SELECT id FROM device_type_alias WHERE device_type = $1 LIMIT 1', [w.deviceTypeId]),
    fresh: async (w) => insert(w.db, 'device_type_alias', { device_type: w.deviceTypeId, is_referenced_by__alias: `alias_${uid()}` }),
    body: async () => ({ is_referenced_by__alias: `alias_${uid()}` }),
    createRejectedWith: SERVER_MAINTAINED('device_type_alias'),
  },
  application_type: {
    sample: async (w) => idOf(w.db, 'SELECT id FROM application_type ORDER BY id LIMIT 1'),
    fresh: async (w) => insert(w.db, 'application_type', { name: 'Fresh', slug: `at_${uid()}` }),
    body: async () => ({ name: 'Matrix', slug: `at_${uid()}` }),
    createRejectedWith: SERVER_MAINTAINED('application_type'),
  },
  application: {
    sample: async (w) => w.fleetId,
    fresh: async (w) => fleetLikeWorld(w, w.orgAdmin, w.fleetUsers),
    body: async (w) => ({ app_name: `MatrixFleet${uid()}`, organization: w.orgId, is_for__device_type: w.deviceTypeId }),
    update: { field: 'should_track_latest_release', value: (_w, current) => !current },
  },
  device: {
    sample: async (w) => insertDevice(w),
    fresh: async (w) => insertDevice(w),
    body: async (w) => ({ uuid: randomBytes(16).toString('hex'), belongs_to__application: w.fleetId, is_of__device_type: w.deviceTypeId }),
    update: { field: 'device_name', value: () => `device-${uid()}` },
  },
  device_tag: {
    sample: async (w) => insert(w.db, 'device_tag', { device: await insertDevice(w), tag_key: `sample_${uid()}`, value: 'sample' }),
    fresh: async (w) => insert(w.db, 'device_tag', { device: await insertDevice(w), tag_key: `fresh_${uid()}`, value: 'fresh' }),
    body: async (w) => ({ device: await insertDevice(w), tag_key: `matrix_${uid()}`, value: 'matrix' }),
    update: { field: 'value', value: () => `value-${uid()}` },
  },
  application_tag: {
    sample: async (w) => insert(w.db, 'application_tag', { application: w.fleetId, tag_key: `sample_${uid()}`, value: 'sample' }),
    fresh: async (w) => insert(w.db, 'application_tag', { application: w.fleetId, tag_key: `fresh_${uid()}`, value: 'fresh' }),
    body: async (w) => ({ application: w.fleetId, tag_key: `matrix_${uid()}`, value: 'matrix' }),
    update: { field: 'value', value: () => `value-${uid()}` },
  },
  application_membership_role: {
    sample: async (w) => w.fleetRoles.observer,
    deleteRejectedWith: { status: 409, reason: 'every seeded fleet role is referenced in the world (FK restrict) and the enum CHECK allows no spare row' },
    body: async () => ({ name: 'observer' }),
    createRejectedWith: SERVER_MAINTAINED('application_membership_role'),
  },
  user_application_membership: {
    sample: async (w) =>
      insert(w.db, 'user_application_membership', {
        user: await spareMember(w),
        is_member_of__application: w.fleetId,
        application_membership_role: w.fleetRoles.observer,
      }),
    fresh: async (w) =>
      insert(w.db, 'user_application_membership', {
        user: await spareMember(w),
        is_member_of__application: w.fleetId,
        application_membership_role: w.fleetRoles.observer,
      }),
    body: async (w) => ({ user: await spareMember(w), is_member_of__application: w.fleetId, application_membership_role: w.fleetRoles.observer }),
    update: { field: 'application_membership_role', value: (w) => w.fleetRoles.operator },
  },
  team: {
    sample: async (w) => w.teamId,
    fresh: async (w) => insert(w.db, 'team', { name: `Fresh ${uid()}`, belongs_to__organization: w.orgId }),
    body: async (w) => ({ name: `Matrix Team ${uid()}`, belongs_to__organization: w.orgId }),
    update: { field: 'name', value: () => `Team ${uid()}` },
  },
  team_membership: {
    sample: async (w) => insert(w.db, 'team_membership', { user: await spareMember(w), is_member_of__team: w.teamId }),
    fresh: async (w) => insert(w.db, 'team_membership', { user: await spareMember(w), is_member_of__team: w.teamId }),
    body: async (w) => ({ user: await spareMember(w), is_member_of__team: w.teamId }),
  },
  team_application_access: {
    // Not the world team's access (that one gives a caller their role): a second team's.
    sample: async (w) =>
      insert(w.db, 'team_application_access', {
        team: await insert(w.db, 'team', { name: `Sample ${uid()}`, belongs_to__organization: w.orgId }),
        grants_access_to__application: w.fleetId,
        application_membership_role: w.fleetRoles.observer,
      }),
    fresh: async (w) =>
      insert(w.db, 'team_application_access', {
        team: await insert(w.db, 'team', { name: `Fresh ${uid()}`, belongs_to__organization: w.orgId }),
        grants_access_to__application: w.fleetId,
        application_membership_role: w.fleetRoles.observer,
      }),
    body: async (w) => ({
      team: await insert(w.db, 'team', { name: `Matrix ${uid()}`, belongs_to__organization: w.orgId }),
      grants_access_to__application: w.fleetId,
      application_membership_role: w.fleetRoles.observer,
    }),
    update: { field: 'application_membership_role', value: (w) => w.fleetRoles.operator },
  },
  email_outbox: {
    sample: async (w) => insert(w.db, 'email_outbox', { recipient: 'x@example.com', subject: 'matrix', text_body: 'matrix', sent_via: 'outbox' }),
    fresh: async (w) => insert(w.db, 'email_outbox', { recipient: 'y@example.com', subject: 'fresh', text_body: 'fresh', sent_via: 'outbox' }),
    body: async () => ({ recipient: 'z@example.com' }),
    createRejectedWith: { status: 400, reason: "every field is writable 'never': only the mailer writes the outbox" },
  },
  invitee__is_invited_to__organization: {
    sample: async (w) => insertInvite(w, 'organization'),
    fresh: async (w) => insertInvite(w, 'organization'),
    body: async (w) => ({
      invitee: `invitee_${uid()}@example.com`,
      is_invited_to__organization: w.orgId,
      organization_membership_role: w.orgRoles.member,
    }),
  },
  invitee: {
    // The invitee of an organization invite of the world organization.
    sample: async (w) => idOf(w.db, 'SELECT invitee AS id FROM invitee__is_invited_to__organization WHERE id = $1', [await insertInvite(w, 'organization')]),
    fresh: async (w) => idOf(w.db, 'SELECT invitee AS id FROM invitee__is_invited_to__organization WHERE id = $1', [await insertInvite(w, 'organization')]),
    body: async () => ({ email: `invitee_${uid()}@example.com` }),
    createRejectedWith: SERVER_MAINTAINED('invitee'),
  },
  invitee__is_invited_to__application: {
    sample: async (w) => insertInvite(w, 'application'),
    fresh: async (w) => insertInvite(w, 'application'),
    body: async (w) => ({
      invitee: `invitee_${uid()}@example.com`,
      is_invited_to__application: w.fleetId,
      application_membership_role: w.fleetRoles.observer,
    }),
  },
  release: {
    sample: async (w) => insertRelease(w),
    fresh: async (w) => insertRelease(w),
    body: async (w) => ({
      belongs_to__application: w.fleetId,
      commit: `${uid()}${uid()}`,
      status: 'running',
      source: 'cloud',
      composition: {},
      start_timestamp: new Date().toISOString(),
    }),
    update: { field: 'note', value: () => `note ${uid()}` },
  },
  service: {
    sample: async (w) => insertService(w),
    fresh: async (w) => insertService(w),
    body: async (w) => ({ application: w.fleetId, service_name: `matrix_${uid()}` }),
  },
  image: {
    sample: async (w) => insertImage(w),
    fresh: async (w) => insertImage(w),
    body: async (w) => ({ is_a_build_of__service: await insertService(w), status: 'running' }),
    update: { field: 'build_log', value: () => `log ${uid()}` },
  },
  image__is_part_of__release: {
    sample: async (w) => insertReleaseImage(w),
    fresh: async (w) => insertReleaseImage(w),
    body: async (w) => ({ image: await insertImage(w), is_part_of__release: await insertRelease(w) }),
  },
  release_tag: {
    sample: async (w) => insert(w.db, 'release_tag', { release: await insertRelease(w), tag_key: `sample_${uid()}`, value: 'sample' }),
    fresh: async (w) => insert(w.db, 'release_tag', { release: await insertRelease(w), tag_key: `fresh_${uid()}`, value: 'fresh' }),
    body: async (w) => ({ release: await insertRelease(w), tag_key: `matrix_${uid()}`, value: 'matrix' }),
    update: { field: 'value', value: () => `value-${uid()}` },
  },
  // Its one field writable after creation is the file, written only by uploading
  // (balena-compat-release-asset.api.test.ts): the PATCH case checks the permission answer.
  release_asset: {
    sample: async (w) => insert(w.db, 'release_asset', { release: await insertRelease(w), asset_key: `sample_${uid()}` }),
    fresh: async (w) => insert(w.db, 'release_asset', { release: await insertRelease(w), asset_key: `fresh_${uid()}` }),
    body: async (w) => ({ release: await insertRelease(w), asset_key: `matrix_${uid()}` }),
  },
  // Written only by the device API from state reports: nobody may create or change them here.
  image_install: {
    sample: async (w) => insert(w.db, 'image_install', { device: await insertDevice(w), installs__image: await insertImage(w), status: 'Running' }),
    fresh: async (w) => insert(w.db, 'image_install', { device: await insertDevice(w), installs__image: await insertImage(w), status: 'Running' }),
    body: async (w) => ({ device: await insertDevice(w), installs__image: await insertImage(w), status: 'Running' }),
  },
  service_install: {
    sample: async (w) => insertVariableServiceInstall(w),
    fresh: async (w) => insertVariableServiceInstall(w),
    body: async (w) => ({ device: await insertDevice(w), installs__service: await insertService(w) }),
  },
  // The web terminal's audit trail (issue 15): written by the server only, read by the
  // administrators of the device's fleet and organization.
  terminal_session: {
    sample: async (w) => insertTerminalSession(w),
    fresh: async (w) => insertTerminalSession(w),
    body: async (w) => ({ session: `s${uid()}`, device: await insertDevice(w), username: 'matrix', target: 'service:main' }),
  },
  // The variables' history (issue 16): read by whoever reads the fleet; nobody writes it.
  variable_change: {
    sample: async (w) => insertVariableChange(w),
    fresh: async (w) => insertVariableChange(w),
    body: async (w) => ({ application: w.fleetId, variable_kind: 'application_environment_variable', name: 'VAR_X', action: 'create', actor_name: 'matrix' }),
  },
  application_environment_variable: variableFixture('application_environment_variable', 'application', async (w) => w.fleetId, 'VAR_'),
  application_config_variable: variableFixture('application_config_variable', 'application', async (w) => w.fleetId, 'BALENA_'),
  build_environment_variable: variableFixture('build_environment_variable', 'application', async (w) => w.fleetId, 'BUILD_'),
  service_environment_variable: variableFixture('service_environment_variable', 'service', insertService, 'VAR_'),
  device_environment_variable: variableFixture('device_environment_variable', 'device', insertDevice, 'VAR_'),
  device_config_variable: variableFixture('device_config_variable', 'device', insertDevice, 'BALENA_'),
  device_service_environment_variable: variableFixture('device_service_environment_variable', 'service_install', insertVariableServiceInstall, 'VAR_'),
  // SSH keys (preferences): the member's own; only they add and delete them, nobody edits one.
  user__has__public_key: {
    sample: async (w) => insert(w.db, 'user__has__public_key', { user: w.member.userId, title: 'matrix', public_key: `ssh-ed25519 ${randomBytes(51).toString('base64')}` }),
    fresh: async (w) => insert(w.db, 'user__has__public_key', { user: w.member.userId, title: 'fresh', public_key: `ssh-ed25519 ${randomBytes(51).toString('base64')}` }),
    body: async (w) => ({ user: w.member.userId, title: `key ${uid()}`, public_key: `ssh-ed25519 ${randomBytes(51).toString('base64')} matrix` }),
  },
  // Linked social accounts: read-only through the data API (social login will write them).
  social_service_account: {
    sample: async (w) => insert(w.db, 'social_service_account', { belongs_to__user: w.member.userId, provider: 'github', display_name: 'matrix', remote_id: uid() }),
    fresh: async (w) => insert(w.db, 'social_service_account', { belongs_to__user: w.member.userId, provider: 'github', display_name: 'fresh', remote_id: uid() }),
    body: async () => ({ provider: 'github' }),
  },
  // OAuth applications: registered by platform administrators, read by every signed-in user.
  oauth_application: {
    sample: async (w) => insert(w.db, 'oauth_application', { client_id: `matrix-${uid()}`, redirect_uri: 'https://app.example.com/cb', name: 'Matrix app' }),
    fresh: async (w) => insert(w.db, 'oauth_application', { client_id: `fresh-${uid()}`, redirect_uri: 'https://app.example.com/cb', name: 'Fresh app' }),
    body: async () => ({ client_id: `new-${uid()}`, redirect_uri: 'https://app.example.com/cb', name: 'New app' }),
  },
  // A user's consent: written only by POST /oauth/authorize; each user reads their own.
  oauth_application_authorization: {
    sample: async (w) => {
      const app = await insert(w.db, 'oauth_application', { client_id: `auth-${uid()}`, redirect_uri: 'https://app.example.com/cb', name: 'Consented app' });
      return insert(w.db, 'oauth_application_authorization', { belongs_to__user: w.member.userId, is_for__oauth_application: app });
    },
    fresh: async (w) => {
      const app = await insert(w.db, 'oauth_application', { client_id: `authf-${uid()}`, redirect_uri: 'https://app.example.com/cb', name: 'Fresh consented app' });
      return insert(w.db, 'oauth_application_authorization', { belongs_to__user: w.member.userId, is_for__oauth_application: app });
    },
    body: async (w) => ({ belongs_to__user: w.member.userId }),
  },
  // Billing (issue 18): the catalogue is read by every signed-in user; an organization's
  // subscription by its members. Only the billing service writes them.
  feature: {
    sample: insertFeature,
    fresh: insertFeature,
    body: async () => ({ title: 'Matrix', slug: `matrix:${uid()}` }),
    createRejectedWith: SERVER_MAINTAINED('feature'),
  },
  plan: {
    sample: insertPlan,
    fresh: insertPlan,
    body: async () => ({ title: 'Matrix', billing_code: `matrix-${uid()}` }),
    createRejectedWith: SERVER_MAINTAINED('plan'),
  },
  plan_feature: {
    sample: async (w) => insert(w.db, 'plan_feature', { plan: await insertPlan(w), feature: await insertFeature(w) }),
    fresh: async (w) => insert(w.db, 'plan_feature', { plan: await insertPlan(w), feature: await insertFeature(w) }),
    body: async (w) => ({ plan: await insertPlan(w), feature: await insertFeature(w) }),
    createRejectedWith: SERVER_MAINTAINED('plan_feature'),
  },
  plan_addon: {
    sample: async (w) => insert(w.db, 'plan_addon', { plan: await insertPlan(w), feature: await insertFeature(w), base_price: 100 }),
    fresh: async (w) => insert(w.db, 'plan_addon', { plan: await insertPlan(w), feature: await insertFeature(w), base_price: 100 }),
    body: async (w) => ({ plan: await insertPlan(w), feature: await insertFeature(w) }),
    createRejectedWith: SERVER_MAINTAINED('plan_addon'),
  },
  subscription: {
    sample: insertSubscription,
    fresh: insertSubscription,
    body: async (w) => ({ is_for__organization: w.orgId, is_for__plan: await insertPlan(w) }),
    createRejectedWith: SERVER_MAINTAINED('subscription'),
  },
  // Credits (issue 18 item 7): billing-access users (organization administrators) read and buy
  // the organization's bundles (nobody edits or deletes one) and manage its notification.
  credit_bundle: {
    sample: insertCreditBundle,
    fresh: insertCreditBundle,
    body: async (w) => ({ belongs_to__organization: w.orgId, is_for__feature: await creditsWorld(w), original_quantity: 1 }),
  },
  organization_credit_notification: {
    sample: insertCreditNotification,
    fresh: insertCreditNotification,
    // The organization's credits notification (the rule's feature), made afresh for each case.
    body: async (w) => {
      const credits = await creditsWorld(w);
      await w.db.query('DELETE FROM organization_credit_notification WHERE organization = $1 AND owns_credit_notification_for__feature = $2', [w.orgId, credits]);
      return { organization: w.orgId, owns_credit_notification_for__feature: credits, is_sent_when_below__threshold: 4 };
    },
    update: { field: 'is_sent_when_below__threshold', value: (_w, current) => Number(current) + 1 },
  },
  // Identity providers (issue 20): read by the administrators of any organization they
  // authorize, changed by the administrators of all of them. Creating one needs
  // `organization_id` (not a column): an organization the caller administers whose plan
  // includes SAML (a hook).
  identity_provider: {
    sample: (w) => insertIdentityProvider(w),
    fresh: (w) => insertIdentityProvider(w),
    body: async (w) => ({
      sso_identifier: `new-${uid()}`,
      entry_point: 'https://idp.example.com/sso',
      issuer: 'new-idp',
      certificate: TEST_CERTIFICATE,
      organization_id: await samlOrganization(w),
    }),
    createRejectedFor: (caller, w) =>
      caller.userId === w.orgAdmin.userId ? undefined : { status: 401, reason: 'organization_id must name an organization the caller administers (hook)' },
    update: { field: 'issuer', value: () => `issuer-${uid()}` },
  },
  identity_provider_membership: {
    sample: async (w) => worldIdpMembership(w, await insertIdentityProvider(w)),
    // The world organization's membership of a provider that keeps another organization.
    fresh: async (w) => worldIdpMembership(w, await insertIdentityProvider(w, await samlOrganization(w))),
    body: async (w) => ({ organization: await samlOrganization(w), is_authorized_by__identity_provider: w.sample.identity_provider }),
    update: { field: 'grants_access_to__team', value: (w) => w.teamId },
  },
  // Written by SAML sign-in only; read by their user and the provider's readers, revoked by its administrator.
  saml_account: {
    sample: insertSamlAccount,
    fresh: insertSamlAccount,
    body: async () => ({ remote_id: `nameid-${uid()}` }),
  },
  // The audit trail of staff reads (issue 19): read by the organization's administrators;
  // nobody writes it through the data API (features/staff-audit does).
  audit_event: {
    sample: insertAuditEvent,
    fresh: insertAuditEvent,
    body: async (w) => ({ organization: w.orgId, kind: 'staff_read', performed_as_username: 'x', performed_by_username: 'x', method: 'GET', route: '/v7/device', request: '/v7/device', request_id: 'r' }),
  },
};

async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/login_', payload: { username: email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.body;
}

async function staff(app: FastifyInstance, db: PoolDb, label: string, platformRole: 'administrator' | 'support_agent', permissions: readonly string[]): Promise<Caller> {
  const email = `${platformRole}_${uid()}@example.com`;
  await createUser(db, { email, password: 'staff-password-123', platformRole, isVerified: true });
  const token = await login(app, email, 'staff-password-123');
  const { rows } = await db.query<{ id: number; actor: number }>('SELECT id, actor FROM "user" WHERE email = $1', [email]);
  return { label, token, actorId: rows[0]!.actor, userId: rows[0]!.id, permissions };
}

/**
 * Builds the world: an organization (of `orgAdmin`) with a fleet, plain members, one user per
 * fleet role through a fleet membership, one through a team's access, an outsider and
 * platform staff; then one sample row per resource.
 */
export async function buildWorld(app: FastifyInstance, db: PoolDb): Promise<World> {
  const USER = ROLES['default-user'];
  const orgAdmin = await signUp(app);
  const users = await Promise.all(Array.from({ length: 7 }, () => signUp(app)));
  const [member, observer, operator, developer, fleetAdmin, teamDeveloper, outsider] = users;
  const orgRoles = Object.fromEntries(
    (await db.query<{ id: number; name: string }>('SELECT id, name FROM organization_membership_role')).rows.map((r) => [r.name, r.id]),
  ) as World['orgRoles'];
  const fleetRoles = Object.fromEntries(
    (await db.query<{ id: number; name: string }>('SELECT id, name FROM application_membership_role')).rows.map((r) => [r.name, r.id]),
  ) as World['fleetRoles'];
  const orgId = orgAdmin.orgId;
  for (const u of [member, observer, operator, developer, fleetAdmin, teamDeveloper]) {
    await insert(db, 'organization_membership', { user: u!.userId, is_member_of__organization: orgId, organization_membership_role: orgRoles.member });
  }
  const deviceTypeId = await idOf(db, `SELECT id FROM device_type WHERE slug = 'raspberrypi3'`);
  const fleetId = await insertFleet(db, orgAdmin, 'MatrixFleet');
  const fleetUsers = { observer: observer!.userId, operator: operator!.userId, developer: developer!.userId, administrator: fleetAdmin!.userId };
  for (const [role, user] of Object.entries(fleetUsers)) {
    await insert(db, 'user_application_membership', {
      user,
      is_member_of__application: fleetId,
      application_membership_role: fleetRoles[role as keyof World['fleetRoles']],
    });
  }
  const teamId = await insert(db, 'team', { name: 'Matrix Team', belongs_to__organization: orgId });
  await insert(db, 'team_membership', { user: teamDeveloper!.userId, is_member_of__team: teamId });
  await insert(db, 'team_application_access', { team: teamId, grants_access_to__application: fleetId, application_membership_role: fleetRoles.developer });

  const asCaller = (label: string, u: SignedUpUser): Caller => ({ label, token: u.token, actorId: u.actorId, userId: u.userId, permissions: USER });
  const callers: Caller[] = [
    { label: 'anonymous', token: null, actorId: null, userId: null, permissions: ROLES.anonymous },
    asCaller('user without relation', outsider!),
    asCaller('organization administrator', orgAdmin),
    asCaller('organization member', member!),
    asCaller('fleet observer', observer!),
    asCaller('fleet operator', operator!),
    asCaller('fleet developer', developer!),
    asCaller('fleet administrator', fleetAdmin!),
    asCaller('fleet developer via team', teamDeveloper!),
    await staff(app, db, 'platform administrator', 'administrator', [...USER, ...ROLES['platform-administrator']]),
    await staff(app, db, 'support agent', 'support_agent', [...USER, ...ROLES.support_agent]),
  ];
  const w: World = { db, orgId, fleetId, teamId, deviceTypeId, orgRoles, fleetRoles, orgAdmin, member: member!, fleetUsers, callers, sample: {} };
  for (const [resource, fx] of Object.entries(FIXTURES)) w.sample[resource] = await fx.sample(w);
  return w;
}
