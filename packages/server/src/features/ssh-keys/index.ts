import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { SSH_KEY_FETCH_TIMEOUT_MS } from './ssh-key-import.service.js';
import { registerSshKeyRules } from './ssh-key.hooks.js';
import { sshKeyRoutes } from './ssh-key.routes.js';

/** SSH keys: validation of new keys; importing a user's keys from the code host. */
export async function setup(app: FastifyInstance, rules: Rules): Promise<void> {
  registerSshKeyRules(rules);
  const { sshKeys } = app.context.config;
  await app.register(sshKeyRoutes, {
    db: app.context.db,
    import: { keysUrl: sshKeys?.keysUrl ?? 'https://github.com', timeoutMs: sshKeys?.timeoutMs ?? SSH_KEY_FETCH_TIMEOUT_MS },
  });
}
