import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';
import { releasesRootKey } from './keys';

/** The release calls of spec 2 §7; each refreshes every release query when it settles. */

export const setReleaseNote = ({ id, note }: { id: number; note: string }) => sdk.models.release.setNote(id, note === '' ? null : note);

export const setReleaseKnownIssueList = ({ id, knownIssueList }: { id: number; knownIssueList: string }) =>
  sdk.models.release.setKnownIssueList(id, knownIssueList === '' ? null : knownIssueList);

/** PATCH release({id}) {semver}: three-part only (the server says so too). */
export const setReleaseSemver = ({ id, semver }: { id: number; semver: string }) => sdk.pine.patch({ resource: 'release', id, body: { semver } });

export const setReleaseIsInvalidated = ({ id, isInvalidated }: { id: number; isInvalidated: boolean }) =>
  sdk.models.release.setIsInvalidated(id, isInvalidated);

export const finalizeRelease = ({ id }: { id: number }) => sdk.models.release.finalize(id);

/** DELETE release?$filter=id in (…) (spec 2 §7); the server refuses pinned releases. */
export const deleteReleases = ({ ids }: { ids: number[] }) => sdk.pine.delete({ resource: 'release', options: { $filter: { id: { $in: ids } } } });

/**
 * A new tag goes through the SDK's tags.set (an upsert: POST, and PATCH on 409); a known one
 * is PATCHed by (release, tag_key) at once, so editing does not first fail with a 409.
 */
export const setReleaseTag = ({ id, key, value, exists }: { id: number; key: string; value: string; exists: boolean }) =>
  exists
    ? sdk.pine.patch({ resource: 'release_tag', options: { $filter: { release: id, tag_key: key } }, body: { value } })
    : sdk.models.release.tags.set(id, key, value);

export const removeReleaseTag = ({ id, key }: { id: number; key: string }) => sdk.models.release.tags.remove(id, key);

function useReleaseMutation<V>(mutationFn: (v: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: releasesRootKey }) });
}

export const useSetReleaseNote = () => useReleaseMutation(setReleaseNote);
export const useSetReleaseKnownIssueList = () => useReleaseMutation(setReleaseKnownIssueList);
export const useSetReleaseSemver = () => useReleaseMutation(setReleaseSemver);
export const useSetReleaseIsInvalidated = () => useReleaseMutation(setReleaseIsInvalidated);
export const useFinalizeRelease = () => useReleaseMutation(finalizeRelease);
export const useSetReleaseTag = () => useReleaseMutation(setReleaseTag);
export const useRemoveReleaseTag = () => useReleaseMutation(removeReleaseTag);

/** Delete does not refetch the deleted release (it would come back empty); the caller leaves the page. */
export function useDeleteRelease() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReleases,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releasesRootKey, predicate: (q) => q.queryKey[1] === 'list' }),
  });
}
