import { model } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import type { Rules } from '../../infra/app/context.js';

const actors = async (tx: Db, sql: string, ids: readonly number[]): Promise<number[]> =>
  (await tx.query<{ a: number }>(sql, [ids])).rows.map((r) => r.a);

/**
 * Rule: a write that revokes or changes what an API key authenticates as takes effect at
 * once, although keys are cached per process (infra/auth/api-key-cache): once it commits,
 * every process drops the keys of the actors concerned. A key deleted or changed (its
 * expiry), a device deleted or moved, a fleet deleted (its provisioning keys and its
 * devices' keys), a user deleted or changed; an organization deleted drops every key.
 * Rows are read in `before`, while they still exist.
 */
export function registerApiKeyRevocationRules(rules: Rules): void {
  const keyActors = (tx: Db, ids: readonly number[]) => actors(tx, 'SELECT DISTINCT is_of__actor AS a FROM api_key WHERE id = ANY($1::int[])', ids);
  for (const method of ['PATCH', 'DELETE'] as const) {
    rules.register('api_key', method, {
      before: async ({ tx, app, ids }) => {
        if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await keyActors(tx, ids) });
      },
    });
  }

  const deviceActors = (tx: Db, ids: readonly number[]) => actors(tx, 'SELECT actor AS a FROM device WHERE id = ANY($1::int[])', ids);
  rules.register('device', 'DELETE', {
    before: async ({ tx, app, ids }) => {
      if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await deviceActors(tx, ids) });
    },
  });
  rules.register('device', 'PATCH', {
    before: async ({ tx, app, ids, body }) => {
      if (ids.length && 'belongs_to__application' in body) app.apiKeyChanges.forget(tx, { actorIds: await deviceActors(tx, ids) });
    },
  });

  rules.register('application', 'DELETE', {
    before: async ({ tx, app, ids }) => {
      if (!ids.length) return;
      const a = await actors(
        tx,
        'SELECT actor AS a FROM application WHERE id = ANY($1::int[]) UNION SELECT actor FROM device WHERE belongs_to__application = ANY($1::int[])',
        ids,
      );
      app.apiKeyChanges.forget(tx, { actorIds: a });
    },
  });

  const userActors = (tx: Db, ids: readonly number[]) => actors(tx, 'SELECT actor AS a FROM "user" WHERE id = ANY($1::int[])', ids);
  for (const method of 'user' in model ? (['PATCH', 'DELETE'] as const) : []) {
    rules.register('user', method, {
      before: async ({ tx, app, ids }) => {
        if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await userActors(tx, ids) });
      },
    });
  }
  rules.register('organization', 'DELETE', {
    before: ({ tx, app, ids }) => {
      if (ids.length) app.apiKeyChanges.forget(tx, {});
    },
  });
}
