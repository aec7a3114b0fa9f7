import type { APIRequestContext } from '@playwright/test';
import { apiAs, type ApiUser, type V7 } from './api';

export interface DeployedService {
  name: string;
  dockerfile?: string;
  buildLog?: string;
  imageSize?: number;
}

export interface DeployOptions {
  commit: string;
  composition: unknown;
  buildLog?: string;
  services: DeployedService[];
  semver?: string;
  /** balena deploy --draft makes a draft (is_final false). */
  isFinal?: boolean;
  tags?: Record<string, string>;
}

/**
 * Deploys a release through the data API in the order `balena deploy` uses: release
 * (running) → service (get or create) → image (running) → release_image → image success →
 * release success. Returns the release id.
 */
export async function deployRelease(request: APIRequestContext, user: ApiUser, fleetId: number, options: DeployOptions): Promise<number> {
  const started = new Date(Date.now() - 95_000).toISOString();
  const release = await apiAs<{ id: number }>(request, user, 'POST', '/v7/release', {
    belongs_to__application: fleetId,
    commit: options.commit,
    composition: options.composition,
    status: 'running',
    source: 'local',
    start_timestamp: started,
    is_final: options.isFinal ?? true,
    ...(options.semver ? { semver: options.semver } : {}),
  });
  for (const svc of options.services) {
    const filter = encodeURIComponent(`application eq ${fleetId} and service_name eq '${svc.name}'`);
    const existing = await apiAs<V7<'service', 'id'>>(request, user, 'GET', `/v7/service?$select=id&$filter=${filter}`);
    const serviceId =
      existing.d[0]?.id ?? (await apiAs<{ id: number }>(request, user, 'POST', '/v7/service', { application: fleetId, service_name: svc.name })).id;
    const image = await apiAs<{ id: number }>(request, user, 'POST', '/v7/image', {
      is_a_build_of__service: serviceId,
      status: 'running',
      start_timestamp: started,
      project_type: 'Dockerfile',
      ...(svc.dockerfile ? { dockerfile: svc.dockerfile } : {}),
    });
    await apiAs(request, user, 'POST', '/v7/image__is_part_of__release', { image: image.id, is_part_of__release: release.id });
    await apiAs(request, user, 'PATCH', `/v7/image(${image.id})`, {
      status: 'success',
      end_timestamp: new Date(Date.now() - 10_000).toISOString(),
      push_timestamp: new Date(Date.now() - 5_000).toISOString(),
      image_size: svc.imageSize ?? 73_400_320,
      content_hash: `sha256:${'ab'.repeat(32)}`,
      ...(svc.buildLog ? { build_log: svc.buildLog } : {}),
    });
  }
  await apiAs(request, user, 'PATCH', `/v7/release(${release.id})`, {
    status: 'success',
    end_timestamp: new Date().toISOString(),
    ...(options.buildLog ? { build_log: options.buildLog } : {}),
  });
  for (const [tag_key, value] of Object.entries(options.tags ?? {})) {
    await apiAs(request, user, 'POST', '/v7/release_tag', { release: release.id, tag_key, value });
  }
  return release.id;
}

/** A 40-hex commit unique to this run. */
export function newCommit(): string {
  let hex = '';
  while (hex.length < 40) hex += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return hex.slice(0, 40);
}
