/**
 * The /deploy deep link (spec 2 §2, §9): a request to deploy a repository or a release
 * archive, read from the query and kept in localStorage for one day, so it survives the
 * login redirect and fleet creation.
 */
export interface DeployRequest {
  tarballUrl?: string;
  repoUrl?: string;
  configUrl?: string;
  defaultDeviceType: string;
  /** The fleet the user chose to deploy to ('use existing fleet'). */
  fleetId?: number;
}

/** Spec 2 §2: a 64-bit Raspberry Pi 4 type unless the link names one. */
export const DEFAULT_DEPLOY_DEVICE_TYPE = 'raspberrypi4-64';
/** Spec 2 §9: stored deploy configuration is valid for 1 day. */
export const DEPLOY_REQUEST_TTL_MS = 24 * 60 * 60 * 1000;
export const DEPLOY_STORAGE_KEY = 'flotilla.deploy-request';

const DEVICE_TYPE_SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/** Only http(s) URLs are kept: the link comes from anywhere and its URLs are shown and followed. */
function httpUrl(value: string | null): string | undefined {
  if (!value || value.length > 2000 || !URL.canParse(value)) return undefined;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:' ? value : undefined;
}

/** The request a /deploy query names; null when it names neither a repository nor an archive. */
export function parseDeployQuery(search: string | URLSearchParams): DeployRequest | null {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const repoUrl = httpUrl(q.get('repoUrl'));
  const tarballUrl = httpUrl(q.get('tarballUrl'));
  if (!repoUrl && !tarballUrl) return null;
  const configUrl = httpUrl(q.get('configUrl'));
  const type = q.get('defaultDeviceType')?.trim() ?? '';
  const request: DeployRequest = { defaultDeviceType: DEVICE_TYPE_SLUG.test(type) ? type : DEFAULT_DEPLOY_DEVICE_TYPE };
  if (repoUrl) request.repoUrl = repoUrl;
  if (tarballUrl) request.tarballUrl = tarballUrl;
  if (configUrl) request.configUrl = configUrl;
  return request;
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function storeDeployRequest(storage: KeyValueStore, request: DeployRequest, now: Date): void {
  storage.setItem(DEPLOY_STORAGE_KEY, JSON.stringify({ request, expiresAt: now.getTime() + DEPLOY_REQUEST_TTL_MS }));
}

/** The stored request while it is valid; an expired or unreadable one is removed. */
export function loadDeployRequest(storage: KeyValueStore, now: Date): DeployRequest | null {
  const raw = storage.getItem(DEPLOY_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const stored = JSON.parse(raw) as { request?: DeployRequest; expiresAt?: number };
    if (stored.request && typeof stored.expiresAt === 'number' && stored.expiresAt > now.getTime()) return stored.request;
  } catch {
    // Unreadable: treated as absent.
  }
  storage.removeItem(DEPLOY_STORAGE_KEY);
  return null;
}

/** Remembers the chosen fleet without extending the request's day of validity. */
export function setDeployTarget(storage: KeyValueStore, fleetId: number, now: Date): DeployRequest | null {
  const raw = storage.getItem(DEPLOY_STORAGE_KEY);
  const current = loadDeployRequest(storage, now);
  if (!current || raw === null) return null;
  const { expiresAt } = JSON.parse(raw) as { expiresAt: number };
  const request = { ...current, fleetId };
  storage.setItem(DEPLOY_STORAGE_KEY, JSON.stringify({ request, expiresAt }));
  return request;
}
