import { model } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { forgetApiKeys } from '../../infra/auth/api-key-cache.js';
import { registerHook } from '../../infra/odata/index.js';

const actors = async (db: Db, sql: string, ids: readonly number[]): Promise<number[]> =>
  (await db.query<{ a: number }>(sql, [ids])).rows.map((r) => r.a);

/**
 * Rule: a write that revokes or changes what an API key authenticates as takes effect at
 * once, although keys are cached per process (infra/auth/api-key-cache): once it commits,
 * every process drops the keys of the actors concerned. A key deleted or changed (its
 * expiry), a device deleted or moved, a fleet deleted (its provisioning keys and its
 * devices' keys), a user deleted or changed; an organization deleted drops every key.
 * Rows are read in `before`, while they still exist.
 */
export function registerApiKeyRevocationRules(): void {
  const keyActors = (db: Db, ids: readonly number[]) => actors(db, 'SELECT DISTINCT is_of__actor AS a FROM api_key WHERE id = ANY($1::int[])', ids);
  for (const method of ['PATCH', 'DELETE'] as const) {
    registerHook('api_key', method, {
      before: async ({ db, ids }) => {
        if (ids.length) forgetApiKeys(db, { actorIds: await keyActors(db, ids) });
      },
    });
  }

  const deviceActors = (db: Db, ids: readonly number[]) => actors(db, 'SELECT actor AS a FROM device WHERE id = ANY($1::int[])', ids);
  registerHook('device', 'DELETE', {
    before: async ({ db, ids }) => {
      if (ids.length) forgetApiKeys(db, { actorIds: await deviceActors(db, ids) });
    },
  });
  registerHook('device', 'PATCH', {
    before: async ({ db, ids, body }) => {
      if (ids.length && 'belongs_to__application' in body) forgetApiKeys(db, { actorIds: await deviceActors(db, ids) });
    },
  });

  registerHook('application', 'DELETE', {
    before: async ({ db, ids }) => {
      if (!ids.length) return;
      const a = await actors(
        db,
        'SELECT actor AS a FROM application WHERE id = ANY($1::int[]) UNION SELECT actor FROM device WHERE belongs_to__application = ANY($1::int[])',
        ids,
      );
      forgetApiKeys(db, { actorIds: a });
    },
  });

  const userActors = (db: Db, ids: readonly number[]) => actors(db, 'SELECT actor AS a FROM "user" WHERE id = ANY($1::int[])', ids);
  for (const method of 'user' in model ? (['PATCH', 'DELETE'] as const) : []) {
    registerHook('user', method, {
      before: async ({ db, ids }) => {
        if (ids.length) forgetApiKeys(db, { actorIds: await userActors(db, ids) });
      },
    });
  }
  registerHook('organization', 'DELETE', {
    before: ({ db, ids }) => {
      if (ids.length) forgetApiKeys(db, {});
    },
  });
}
