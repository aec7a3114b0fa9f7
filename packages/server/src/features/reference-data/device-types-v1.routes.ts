import type { FastifyInstance } from 'fastify';
import { deviceTypeManifest } from '@flotilla/model';
import type { Db } from '../../infra/db/db.js';
import { NotFoundError } from '../../infra/errors.js';
import { selectManifestRows, type ManifestRow } from './reference-data.repository.js';

/**
 * The legacy device-type manifests balena still serves and balena-sdk reads
 * (`config.getDeviceTypes`, `getDeviceTypeManifestBySlug`, `getDeviceOptions`):
 * `GET /device-types/v1` (every type of the public catalogue) and
 * `GET /device-types/v1/{slug or alias}`. Public, like the catalogue in `/v7`.
 */
export async function deviceTypesV1Routes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  const manifests = (alias?: string): Promise<ManifestRow[]> => selectManifestRows(db, alias);

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
