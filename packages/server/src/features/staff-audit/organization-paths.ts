import { model } from '@flotilla/model';

/**
 * Where each resource finds the organization whose data it is: the foreign keys to follow
 * from a row to its organization (`device`: belongs_to__application, organization), the
 * shortest such path in the model (never through a user: a user belongs to no one
 * organization). `[]` for the organization itself; absent for reference data, users and
 * other rows of no single organization, whose reads are not an organization's to audit.
 */
export function organizationPaths(): ReadonlyMap<string, readonly string[]> {
  const paths = new Map<string, readonly string[]>();
  for (const resource of Object.keys(model)) {
    if (resource === 'audit_event') continue; // reading the trail itself is not recorded
    const path = shortestPath(resource);
    if (path) paths.set(resource, path);
  }
  return paths;
}

function shortestPath(from: string): string[] | undefined {
  if (from === 'organization') return [];
  const queue: { resource: string; path: string[] }[] = [{ resource: from, path: [] }];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const { resource, path } = queue.shift()!;
    for (const f of model[resource]?.fields ?? []) {
      if (f.type !== 'ForeignKey' || !f.references || f.references === 'user' || f.computed !== undefined) continue;
      if (f.references === 'organization') return [...path, f.name];
      if (seen.has(f.references)) continue;
      seen.add(f.references);
      queue.push({ resource: f.references, path: [...path, f.name] });
    }
  }
  return undefined;
}
