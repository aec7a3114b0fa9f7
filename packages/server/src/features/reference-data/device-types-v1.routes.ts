import type { FastifyInstance } from 'fastify';
import { deviceTypeManifest } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { NotFoundError } from '../../infra/errors.js';

interface ManifestRow {
  slug: string;
  name: string;
  arch: string;
  aliases: string[];
  contract: unknown;
}

/**
 * The legacy device-type manifests balena still serves and balena-sdk reads
 * (`config.getDeviceTypes`, `getDeviceTypeManifestBySlug`, `getDeviceOptions`):
 * `GET /device-types/v1` (every type of the public catalogue) and
 * `GET /device-types/v1/{slug or alias}`. Public, like the catalogue in `/v7`.
 */
export async function deviceTypesV1Routes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  const manifests = async (alias?: string): Promise<ManifestRow[]> =>
    (
      await db.query<ManifestRow>(
        `SELECT dt.slug, dt.name, ca.slug AS arch, dt.contract,
                COALESCE((SELECT array_agg(a.is_referenced_by__alias ORDER BY a.is_referenced_by__alias)
                            FROM device_type_alias a WHERE a.device_type = dt.id AND a.is_referenced_by__alias <> dt.slug), '{}') AS aliases
           FROM device_type dt JOIN cpu_architecture ca ON ca.id = dt.is_of__cpu_architecture
          WHERE $1::text IS NULL OR dt.id = (SELECT device_type FROM device_type_alias WHERE is_referenced_by__alias = $1)
          ORDER BY dt.slug`,
        [alias ?? null],
      )
    ).rows;

  app.get('/device-types/v1', async () => (await manifests()).map(deviceTypeManifest));
  app.get<{ Params: { slug: string } }>(
    '/device-types/v1/:slug',
    { schema: { params: { type: 'object', required: ['slug'], properties: { slug: { type: 'string', minLength: 1, maxLength: 100 } } } } },
    async (request) => {
      const [row] = await manifests(request.params.slug);
      if (!row) throw new NotFoundError('Device type not found');
      return deviceTypeManifest(row);
    },
  );
}
