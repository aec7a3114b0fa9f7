import type { FastifyInstance } from 'fastify';
import { configVarsDocument, type ConfigVarProperty } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { selectConfigVariableSchema } from './variable.repository.js';

/**
 * `GET /config/vars[?deviceType=<slug or alias>]`: the variable name rules and the device
 * type's configuration-variable schema, public as in balena (balena-sdk
 * `models.config.getConfigVarSchema`; balena-cli reads `reservedNamespaces` before `env set`).
 * An unknown device type gets the rules with an empty schema.
 */
export async function configVarsRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get<{ Querystring: { deviceType?: string } }>(
    '/config/vars',
    { schema: { querystring: { type: 'object', properties: { deviceType: { type: 'string', maxLength: 100 } } } } },
    async (request) => {
      const slug = request.query.deviceType;
      let properties: Record<string, ConfigVarProperty> = {};
      if (slug) {
        properties = (await selectConfigVariableSchema(db, slug)) ?? {};
      }
      return configVarsDocument(properties);
    },
  );
}
