import { ROLES } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { userPermissions } from '../../infra/auth/authenticate.js';
import type { Actor } from '../../infra/http/actor.js';
import { odataActionableIds, odataRead, type DataContext } from '../../infra/odata/index.js';
import { imageIsReleased } from './registry.repository.js';
import type { Access, TokenSubject } from './token.js';

/**
 * What a caller may do in the registry, from the model's permissions (never a second rule
 * set): repository `v2/<hex>` is the image stored at `<registry host>/v2/<hex>`.
 *  - pull: whoever may read that image (the fleet's members, its own devices);
 *  - push (and delete): users who may update it (fleet developers and up), while the image is
 *    in no release that finished successfully (docs/decisions.md, issue 14 — registry).
 * Anything else (other names, `registry:catalog:*` for anonymous callers) gets no grant.
 */

/** Names Flotilla hands out as image locations: `v2/<32 hex>`. */
export const REPOSITORY_NAME = /^v2\/[0-9a-f]{32}$/;

/** The data-layer identity of a token's subject. */
export function subjectContext(subject: TokenSubject): DataContext {
  const permissions =
    subject.p === 'device'
      ? ROLES.device
      : subject.p === 'application'
        ? ROLES['provisioning-api-key']
        : userPermissions(subject.p === 'admin' ? 'administrator' : subject.p === 'support' ? 'support_agent' : null);
  return { actorId: subject.a, permissions };
}

export function subjectOf(actor: Actor): TokenSubject {
  if (actor.kind !== 'user') return { a: actor.actorId, p: actor.kind };
  const p = actor.permissions === userPermissions('administrator') ? 'admin' : actor.permissions === userPermissions('support_agent') ? 'support' : 'user';
  return { a: actor.actorId, p };
}

const imageUrl = (name: string) => `/image?$select=id&$filter=endswith(is_stored_at__image_location,'/${name}')&$top=1`;

/**
 * Called with the image's id before push or delete is granted to a caller who would get it
 * (billing: a frozen organization's fleets take no new images; it throws the 402).
 */
export type BeforePush = (imageId: number) => Promise<void>;

async function grantsFor(db: Db, ctx: DataContext, kind: Actor['kind'], access: Access, beforePush: BeforePush | undefined): Promise<string[]> {
  if (access.type === 'registry') {
    return access.name === 'catalog' && access.actions.includes('*') ? ['*'] : [];
  }
  if (!REPOSITORY_NAME.test(access.name)) return [];
  const wanted = new Set(access.actions.includes('*') ? ['pull', 'push', 'delete'] : access.actions);
  const granted: string[] = [];
  if (wanted.has('pull') && (await odataRead(db, ctx, imageUrl(access.name))).length > 0) granted.push('pull');
  if ((wanted.has('push') || wanted.has('delete')) && kind === 'user') {
    const [id] = await odataActionableIds(db, ctx, imageUrl(access.name), 'update');
    if (id !== undefined && !(await imageIsReleased(db, id))) {
      await beforePush?.(id);
      if (wanted.has('push')) granted.push('push');
      if (wanted.has('delete')) granted.push('delete');
    }
  }
  return granted;
}

/** The grants of each requested scope that the caller holds (scopes with none are left out). */
export async function grantAccess(db: Db, actor: Actor | null, requested: readonly Access[], beforePush?: BeforePush): Promise<Access[]> {
  if (!actor) return [];
  const ctx: DataContext = { actorId: actor.actorId, permissions: actor.permissions };
  const out: Access[] = [];
  for (const access of requested.slice(0, MAX_SCOPES)) {
    const actions = await grantsFor(db, ctx, actor.kind, access, beforePush);
    if (actions.length > 0) out.push({ type: access.type, name: access.name, actions });
  }
  return out;
}

/** At most this many scopes are judged per token request (a compose project has a few images). */
export const MAX_SCOPES = 50;

/** Which of `names` (repositories) the subject may pull. */
export async function pullableRepositories(db: Db, ctx: DataContext, names: readonly string[]): Promise<Set<string>> {
  const valid = names.filter((n) => REPOSITORY_NAME.test(n));
  if (valid.length === 0) return new Set();
  const filter = valid.map((n) => `endswith(is_stored_at__image_location,'/${n}')`).join(' or ');
  const rows = await odataRead<{ is_stored_at__image_location: string }>(db, ctx, `/image?$select=is_stored_at__image_location&$filter=${filter}`);
  return new Set(rows.map((r) => r.is_stored_at__image_location.replace(/^[^/]*\//, '')));
}
