import { CPU_ARCHITECTURES, hostFleetName, PLATFORM_ORGANIZATION, supervisorFleetName, type OsReleasePublishInput, type PublishedSupervisorRelease } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';

/**
 * The public host OS and supervisor catalogue as /admin shows it (issue 17): every release of a
 * type's host fleets (withdrawn ones too, which balena-sdk's `os.*` leave out), read through
 * the data API (public); publishing and withdrawing through the server's admin endpoints.
 */
export interface AdminOsRelease {
  id: number;
  raw_version: string;
  variant: string;
  phase: string | null;
  created_at: string;
  is_invalidated: boolean;
  esr: boolean;
}

export interface AdminSupervisorRelease {
  id: number;
  raw_version: string;
  created_at: string;
  arch: string;
}

/** Releases a catalogue fleet may hold that one page shows (newest first); the server caps pages too. */
export const CATALOGUE_PAGE_SIZE = 500;
const slugOf = (appName: string) => `${PLATFORM_ORGANIZATION.handle}/${appName}`;

export const osReleasesQueryKey = (deviceType: string) => ['admin', 'os-releases', deviceType] as const;
export const supervisorReleasesQueryKey = ['admin', 'supervisor-releases'] as const;

export async function getOsReleases(deviceType: string): Promise<AdminOsRelease[]> {
  const esrSlug = slugOf(hostFleetName(deviceType, true));
  const fleets = await pineGet('application', {
    $select: ['slug'],
    $filter: { slug: { $in: [slugOf(hostFleetName(deviceType)), esrSlug] } },
    $expand: {
      owns__release: {
        $select: ['id', 'raw_version', 'variant', 'phase', 'created_at', 'is_invalidated'],
        $orderby: { created_at: 'desc' },
        $top: CATALOGUE_PAGE_SIZE,
      },
    },
  });
  return fleets
    .flatMap((f) => f.owns__release.map((r) => ({ ...r, raw_version: r.raw_version ?? '', esr: f.slug === esrSlug })))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

export async function getSupervisorReleases(): Promise<AdminSupervisorRelease[]> {
  const slugs = new Map(CPU_ARCHITECTURES.map((arch) => [slugOf(supervisorFleetName(arch)), arch]));
  const fleets = await pineGet('application', {
    $select: ['slug'],
    $filter: { slug: { $in: [...slugs.keys()] } },
    $expand: {
      owns__release: {
        $select: ['id', 'raw_version', 'created_at'],
        $filter: { is_invalidated: false },
        $orderby: { created_at: 'desc' },
        $top: CATALOGUE_PAGE_SIZE,
      },
    },
  });
  return fleets.flatMap((f) => f.owns__release.map((r) => ({ id: r.id, raw_version: r.raw_version ?? '', created_at: r.created_at, arch: slugs.get(f.slug) ?? '' })));
}

export function useOsReleases(deviceType: string) {
  return useQuery({ queryKey: osReleasesQueryKey(deviceType), queryFn: () => getOsReleases(deviceType) });
}

export function useSupervisorReleases() {
  return useQuery({ queryKey: supervisorReleasesQueryKey, queryFn: getSupervisorReleases });
}

export interface PublishedOsRelease {
  id: number;
  raw_version: string;
  fleet: string;
}

/** POST /admin/v1/os-releases (platform administrators): 201 with the release, or 400 with the model's message. */
export async function publishOsRelease(body: OsReleasePublishInput): Promise<PublishedOsRelease> {
  const res = await sdk.request.send<PublishedOsRelease>({ method: 'POST', url: '/admin/v1/os-releases', baseUrl: window.location.origin, body });
  return res.body;
}

/** POST /admin/v1/os-releases/:id/withdraw. */
export async function withdrawOsRelease(id: number): Promise<void> {
  await sdk.request.send({ method: 'POST', url: `/admin/v1/os-releases/${id}/withdraw`, baseUrl: window.location.origin, body: {} });
}

export function usePublishOsRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishOsRelease,
    onSuccess: (_r, body) => queryClient.invalidateQueries({ queryKey: osReleasesQueryKey(body.deviceType) }),
  });
}

export function useWithdrawOsRelease(deviceType: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawOsRelease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: osReleasesQueryKey(deviceType) }),
  });
}


/** The server's refusal text: a JSON string (the dialect) or `{message}`. */
function refusalText(text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'string') return parsed;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') return (parsed as { message: string }).message;
  } catch {
    // not JSON: the text itself
  }
  return text;
}

/**
 * POST /admin/v1/supervisor-releases?version=&arch= with the agent build as the raw body
 * (application/octet-stream): 201 `{releases: [...]}`. The SDK's request helper sends JSON, so
 * this is a plain fetch with the session token.
 */
export async function publishSupervisorRelease({ file, version, arch }: { file: Blob; version: string; arch: string }): Promise<PublishedSupervisorRelease[]> {
  const token = await sdk.auth.getToken();
  const query = new URLSearchParams({ version, arch });
  const res = await fetch(`/admin/v1/supervisor-releases?${query.toString()}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: file,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(refusalText(text) || `HTTP ${res.status}`);
  return (JSON.parse(text) as { releases: PublishedSupervisorRelease[] }).releases;
}

export function usePublishSupervisorRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishSupervisorRelease,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supervisorReleasesQueryKey }),
  });
}
