import { isArchitectureCompatibleWith } from '@flotilla/model';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../infra/db/db.js';
import { BadRequestError, NotFoundError } from '../../infra/errors.js';
import { requireUser } from '../../infra/http/guards.js';
import { objectOf, SHORT_CODE } from '../../infra/http/schemas.js';
import { odataRead } from '../../infra/odata/index.js';
import { parseExpiry } from '../../infra/auth/api-keys.js';
import { registryHostOf } from '../registry/index.js';
import { buildDeviceConfig } from './device-config.js';
import { createProvisioningKey } from './provisioning-key.service.js';

interface DownloadConfigBody {
  appId: number;
  version: string;
  deviceType?: string;
  appUpdatePollInterval?: number;
  provisioningKeyName?: string;
  provisioningKeyExpiryDate?: string;
  developmentMode?: boolean;
}

// balena-sdk's getConfig sends its network options too (network, wifiSsid, wifiKey, ip,
// gateway, netmask): accepted, not part of config.json (the OS image's network settings).
const bodySchema = objectOf(
  {
    appId: { type: 'integer', minimum: 1 },
    version: { type: 'string', minLength: 1, maxLength: 255 },
    deviceType: SHORT_CODE,
    appUpdatePollInterval: { type: 'integer', minimum: 1, maximum: 1440 },
    provisioningKeyName: { type: 'string', maxLength: 255 },
    provisioningKeyExpiryDate: { type: 'string', maxLength: 64 },
    developmentMode: { type: 'boolean' },
    network: { type: 'string', enum: ['ethernet', 'wifi'] },
    wifiSsid: { type: 'string', maxLength: 255 },
    wifiKey: { type: 'string', maxLength: 255 },
    ip: { type: 'string', maxLength: 64 },
    gateway: { type: 'string', maxLength: 64 },
    netmask: { type: 'string', maxLength: 64 },
  },
  ['appId', 'version'],
);

interface TypeRow {
  slug: string;
  is_of__cpu_architecture: { slug: string }[];
}

const TYPE_SELECT = '$select=slug&$expand=is_of__cpu_architecture($select=slug)';

/**
 * `POST /download-config` (balena-sdk `os.getConfig`, the Add device dialog): a new
 * provisioning key for the fleet and the `config.json` a device of that fleet boots with.
 * The caller must be allowed to make provisioning keys for the fleet (operator and up);
 * the device type, when named, must run the fleet's CPU architecture.
 */
export async function downloadConfigRoutes(app: FastifyInstance, { db, beforeCreate }: { db: Db; beforeCreate?: (applicationId: number) => Promise<void> }): Promise<void> {
  app.post<{ Body: DownloadConfigBody }>('/download-config', { schema: { body: bodySchema }, config: { noStore: true, audit: { action: 'download_config', targets: [{ resource: 'application', from: 'body', field: 'appId' }] } } }, async (request, reply) => {
    const actor = requireUser(request);
    const body = request.body;
    const [fleet] = await odataRead<{ id: number; is_for__device_type: TypeRow[] }>(
      db,
      actor,
      `/application(${body.appId})?$select=id&$expand=is_for__device_type(${TYPE_SELECT})`,
    );
    if (!fleet) throw new NotFoundError('Application not found');
    const fleetType = fleet.is_for__device_type[0]!;
    let deviceType = fleetType;
    if (body.deviceType !== undefined && body.deviceType !== fleetType.slug) {
      const [named] = await odataRead<TypeRow>(db, actor, `/device_type?$filter=slug eq '${encodeURIComponent(body.deviceType)}'&${TYPE_SELECT}`);
      if (!named) throw new BadRequestError(`Invalid device type: ${body.deviceType}`);
      if (!isArchitectureCompatibleWith(named.is_of__cpu_architecture[0]!.slug, fleetType.is_of__cpu_architecture[0]!.slug)) {
        throw new BadRequestError(`Incompatible device type: ${body.deviceType}`);
      }
      deviceType = named;
    }
    const apiKey = await createProvisioningKey(db, actor, fleet.id, {
      name: body.provisioningKeyName?.trim() || null,
      description: null,
      expiry: parseExpiry(body.provisioningKeyExpiryDate),
    }, beforeCreate);
    const config = buildDeviceConfig({
      applicationId: fleet.id,
      deviceType: deviceType.slug,
      userId: actor.userId,
      apiKey,
      publicUrl: app.context.mailer.publicUrl,
      // The host image locations name, so a stock supervisor pulls from where the release is.
      registryHost: registryHostOf(app.context),
      appUpdatePollIntervalMinutes: body.appUpdatePollInterval,
      developmentMode: body.developmentMode,
    });
    return reply.send(config);
  });
}
