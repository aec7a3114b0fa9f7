import { model } from '@flotilla/model';
import type { Rules } from '../../infra/app/context.js';
import { actorsOfApiKeys, actorsOfDevices, actorsOfFleetsAndDevices, actorsOfUsers } from '../../infra/auth/actor.repository.js';

/**
 * Rule: a write that revokes or changes what an API key authenticates as takes effect at
 * once, although keys are cached per process (infra/auth/api-key-cache): once it commits,
 * every process drops the keys of the actors concerned. A key deleted or changed (its
 * expiry), a device deleted or moved, a fleet deleted (its provisioning keys and its
 * devices' keys), a user deleted or changed; an organization deleted drops every key.
 * Rows are read in `before`, while they still exist.
 */
export function registerApiKeyRevocationRules(rules: Rules): void {
  for (const method of ['PATCH', 'DELETE'] as const) {
    rules.register('api_key', method, {
      before: async ({ tx, app, ids }) => {
        if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await actorsOfApiKeys(tx, ids) });
      },
    });
  }

  rules.register('device', 'DELETE', {
    before: async ({ tx, app, ids }) => {
      if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await actorsOfDevices(tx, ids) });
    },
  });
  rules.register('device', 'PATCH', {
    before: async ({ tx, app, ids, body }) => {
      if (ids.length && 'belongs_to__application' in body) app.apiKeyChanges.forget(tx, { actorIds: await actorsOfDevices(tx, ids) });
    },
  });

  rules.register('application', 'DELETE', {
    before: async ({ tx, app, ids }) => {
      if (!ids.length) return;
      const a = await actorsOfFleetsAndDevices(tx, ids);
      app.apiKeyChanges.forget(tx, { actorIds: a });
    },
  });

  for (const method of 'user' in model ? (['PATCH', 'DELETE'] as const) : []) {
    rules.register('user', method, {
      before: async ({ tx, app, ids }) => {
        if (ids.length) app.apiKeyChanges.forget(tx, { actorIds: await actorsOfUsers(tx, ids) });
      },
    });
  }
  rules.register('organization', 'DELETE', {
    before: ({ tx, app, ids }) => {
      if (ids.length) app.apiKeyChanges.forget(tx, {});
    },
  });
}
