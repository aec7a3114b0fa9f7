import { pinePatch, pinePost } from '../../../../lib/pine';
import { sdk } from '../../../../lib/sdk';
import type { ConfigLevel } from './config-variables';

/**
 * One staged configuration change as it is written (spec 2 §7 Config): POST
 * `{application|device, name, value}`, PATCH by id `{value}`, DELETE by id.
 */
export type ConfigWrite =
  | { kind: 'create'; name: string; value: string }
  | { kind: 'update'; id: number; value: string }
  | { kind: 'delete'; id: number };

const RESOURCE = { fleet: 'application_config_variable', device: 'device_config_variable' } as const;

export async function writeConfig(level: ConfigLevel, ownerId: number, write: ConfigWrite): Promise<void> {
  const resource = RESOURCE[level];
  switch (write.kind) {
    case 'create':
      if (level === 'fleet') await pinePost('application_config_variable', { application: ownerId, name: write.name, value: write.value });
      else await pinePost('device_config_variable', { device: ownerId, name: write.name, value: write.value });
      return;
    case 'update':
      await pinePatch(resource, { id: write.id }, { value: write.value });
      return;
    case 'delete':
      await sdk.pine.delete({ resource, id: write.id });
  }
}

/** Spec 2 §7: the overrides dialog deletes the selected device variables in one request (`id in list`). */
export async function deleteDeviceConfigVariables(ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sdk.pine.delete({ resource: 'device_config_variable', options: { $filter: { id: { $in: [...ids] } } } });
}
