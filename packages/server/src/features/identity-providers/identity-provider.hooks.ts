import {
  CAPABILITIES,
  IDP_BLOCKED_BY_SAML_ACCOUNTS,
  IDP_MESSAGES,
  canAdministerIdentityProvider,
  identityProviderProblem,
  normalizeCertificate,
} from '@flotilla/model';
import type { AppContext, Rules } from '../../infra/app/context.js';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, ConflictError, ForbiddenError, UnauthorizedError } from '../../infra/errors.js';
import { ROOT_PERMISSIONS, type DataContext, type HookBody } from '../../infra/odata/index.js';
import { planIncludes } from '../billing/index.js';
import {
  administeredOrganizationIds,
  deleteProvidersOnlyOf,
  insertMembership,
  membershipsOutsideTeamOrganization,
  organizationsOfProviders,
  providersLeftWithoutOrganization,
  providersOfMemberships,
  providersOfSamlAccounts,
  samlAccountCount,
  ssoIdentifierTaken,
} from './identity-provider.repository.js';
import { requireSamlEnabled } from './saml-enabled.js';

/** Message of POST /v7/identity_provider without a usable `organization_id`. */
export const ORGANIZATION_ID_REQUIRED = 'organization_id is required: the organization the identity provider authorizes first';
/** An organization a provider already authorizes, added again. */
export const MEMBERSHIP_EXISTS = 'This organization is already authorized by this identity provider';

const isRoot = (actor: DataContext) => actor.permissions === ROOT_PERMISSIONS;

/** The organization's plan includes SAML (always while billing is off); else 403 with what to do. */
async function assertPlanIncludesSaml(app: AppContext, db: Db, orgId: number): Promise<void> {
  if (!(await planIncludes(db, app.config.billing?.enabled === true, orgId, CAPABILITIES.saml))) throw new ForbiddenError(IDP_MESSAGES.unauthorized_view_idp);
}

/**
 * The caller administers every organization of each of these providers (spec 1 §6: only an
 * identity provider's administrator changes it), else 403. Locks the providers.
 */
async function assertAdministers(db: Db, actor: DataContext, providerIds: readonly number[]): Promise<void> {
  if (providerIds.length === 0) return;
  const orgs = await organizationsOfProviders(db, providerIds);
  if (isRoot(actor)) return;
  const all = [...new Set([...orgs.values()].flat())];
  const administered = await administeredOrganizationIds(db, actor.actorId, all);
  for (const ids of orgs.values()) {
    if (!canAdministerIdentityProvider(ids, administered)) throw new ForbiddenError(IDP_MESSAGES.cannot_interact_not_an_admin_of_this_idp);
  }
}

/** Checks the provider fields the body names (all of them on POST), normalising the certificate and trimming the texts. */
async function checkProviderFields(db: Db, body: HookBody<'identity_provider', 'PATCH'>, ids: readonly number[], partial: boolean): Promise<void> {
  for (const field of ['entry_point', 'issuer'] as const) {
    const v = body[field];
    if (typeof v === 'string') body[field] = v.trim();
  }
  const problem = identityProviderProblem(body, partial);
  if (problem) throw new BadRequestError(problem.message);
  if (typeof body.certificate === 'string') body.certificate = normalizeCertificate(body.certificate)!;
  if (typeof body.sso_identifier === 'string') {
    if (ids.length > 1) throw new ConflictError(IDP_MESSAGES.sso_identifier_taken);
    if (await ssoIdentifierTaken(db, body.sso_identifier, ids)) throw new ConflictError(IDP_MESSAGES.sso_identifier_taken);
  }
}

export function registerIdentityProviderRules(rules: Rules): void {
  rules.registerConstraintMessage('identity_provider_sso_identifier_key', IDP_MESSAGES.sso_identifier_taken);
  // PostgreSQL cuts identifiers at 63 bytes: the unique constraint's name as the database has it.
  rules.registerConstraintMessage('identity_provider_membership_organization_is_authorized_by__identity_provider_key'.slice(0, 63), MEMBERSHIP_EXISTS);

  // POST {sso_identifier, entry_point, issuer, certificate, organization_id}: the provider and
  // its first membership, in the write's transaction (spec 1 §7). `organization_id` is not a
  // column; it is remembered from `before` to `after` by the body object.
  const firstOrganization = new WeakMap<object, number>();
  rules.register('identity_provider', 'POST', {
    acceptFields: ['organization_id'],
    async before({ tx, app, actor, body }) {
      requireSamlEnabled(app);
      const orgId = body.organization_id;
      delete body.organization_id;
      if (typeof orgId !== 'number' || !Number.isSafeInteger(orgId) || orgId <= 0) throw new BadRequestError(ORGANIZATION_ID_REQUIRED);
      if (!isRoot(actor)) {
        // Not an administrator of it (or no such organization): the engine's own refusal.
        if ((await administeredOrganizationIds(tx, actor.actorId, [orgId])).length === 0) throw new UnauthorizedError();
        await assertPlanIncludesSaml(app, tx, orgId);
      }
      await checkProviderFields(tx, body, [], false);
      firstOrganization.set(body, orgId);
    },
    async after({ tx, body, ids }) {
      const orgId = firstOrganization.get(body);
      if (orgId !== undefined && ids[0] !== undefined) await insertMembership(tx, ids[0], orgId);
    },
  });
  rules.register('identity_provider', 'PATCH', {
    async before({ tx, app, actor, body, ids }) {
      requireSamlEnabled(app);
      await assertAdministers(tx, actor, ids);
      await checkProviderFields(tx, body, ids, true);
    },
  });
  rules.register('identity_provider', 'DELETE', {
    // Its memberships go with it (ON DELETE CASCADE); its SAML accounts must be revoked first.
    async before({ tx, app, actor, ids }) {
      requireSamlEnabled(app);
      await assertAdministers(tx, actor, ids);
      const accounts = ids.length === 0 ? 0 : await samlAccountCount(tx, ids);
      if (accounts > 0) throw new ConflictError(IDP_BLOCKED_BY_SAML_ACCOUNTS(accounts));
    },
  });

  // Memberships: the create rule requires administering the added organization; the provider's
  // administrator (of its other organizations) adds it, on a plan with SAML.
  rules.register('identity_provider_membership', 'POST', {
    before: ({ app }) => requireSamlEnabled(app),
    async after({ tx, app, actor, body, ids }) {
      if (isRoot(actor) || ids.length === 0) return;
      if (typeof body.is_authorized_by__identity_provider === 'number') await assertAdministers(tx, actor, [body.is_authorized_by__identity_provider]);
      if (typeof body.organization === 'number') await assertPlanIncludesSaml(app, tx, body.organization);
    },
  });
  rules.register('identity_provider_membership', 'PATCH', {
    async before({ tx, app, actor, body, ids }) {
      requireSamlEnabled(app);
      if (ids.length === 0) return;
      await assertAdministers(tx, actor, await providersOfMemberships(tx, ids));
      const team = body.grants_access_to__team;
      if (typeof team === 'number' && (await membershipsOutsideTeamOrganization(tx, ids, team))) throw new BadRequestError(IDP_MESSAGES.team_not_in_organization);
    },
  });
  rules.register('identity_provider_membership', 'DELETE', {
    async before({ tx, app, actor, ids }) {
      requireSamlEnabled(app);
      if (ids.length === 0) return;
      const providers = await providersOfMemberships(tx, ids);
      await assertAdministers(tx, actor, providers);
      if ((await providersLeftWithoutOrganization(tx, providers, ids)).length > 0) throw new BadRequestError(IDP_MESSAGES.idp_must_have_at_least_one_org);
    },
  });

  // An organization deleted (by its administrator, or with its last administrator's account):
  // the providers that authorize no other organization go with it, their SAML accounts too —
  // nobody could administer or even read them any more, and they would keep their SSO
  // identifiers taken.
  rules.register('organization', 'DELETE', {
    async before({ tx, ids }) {
      if (ids.length > 0) await deleteProvidersOnlyOf(tx, ids);
    },
  });

  // Revoking a SAML account: the provider's administrator (even while SAML is off: revoking
  // access is always allowed).
  rules.register('saml_account', 'DELETE', {
    async before({ tx, actor, ids }) {
      if (ids.length === 0) return;
      await assertAdministers(tx, actor, await providersOfSamlAccounts(tx, ids));
    },
  });
}
