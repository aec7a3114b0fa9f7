import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { requireUser } from '../../infra/http/guards.js';
import { importSshKeys, type SshKeyImportOptions } from './ssh-key-import.service.js';

/**
 * `POST /user/v1/ssh-keys/import {username}`: the server reads the user's public keys from
 * the code host (the browser could not reach a self-hosted one, and the CSP allows no other
 * origin) and saves those not saved yet. Answers 201 `{d: [created keys]}`.
 */
export async function sshKeyRoutes(app: FastifyInstance, opts: { db: Db; import: SshKeyImportOptions }): Promise<void> {
  app.post<{ Body: { username?: unknown } }>(
    '/user/v1/ssh-keys/import',
    { schema: { body: { type: 'object', properties: { username: { type: 'string', maxLength: 255 } } } } },
    async (request, reply) => {
      const actor = requireUser(request);
      const created = await importSshKeys(app.context, opts.db, actor, actor.userId, opts.import, request.body?.username);
      return reply.code(201).send({ d: created });
    },
  );
}
