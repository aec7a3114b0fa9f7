/** One generated request, as sent and as printed to reproduce it. */
export interface FuzzRequest {
  /** Which grammar made it (summary buckets). */
  kind: 'v7-read' | 'v7-write' | 'device' | 'logs' | 'registry' | 'token' | 'raw' | 'other';
  method: string;
  /** The request target as sent (may hold bytes a URL parser would refuse: sent raw then). */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The actor whose credential it carries (summary and reproduction). */
  actor: string;
  /** Mutations applied, in order (reproduction aid). */
  mutations: string[];
}

/** The credentials and rows the generators aim at (the seeded world, see world.ts). */
export interface FuzzWorld {
  actors: { name: string; headers: Record<string, string> }[];
  /** Known ids per resource (rows of the fuzzing actors, of the other organization, and absent ones). */
  ids: Record<string, number[]>;
  deviceUuids: string[];
  /** The device key of each device in `deviceUuids` that has one (same index), else undefined. */
  deviceKeys: (string | undefined)[];
  fleetUuids: string[];
  /** `v2/<hex>` repositories of release images. */
  repositories: string[];
  /** Registry Basic credentials (`username:password`) to mint tokens with. */
  registryLogins: string[];
  /** Registry Bearer tokens minted at seeding (pull,push on the repositories above). */
  registryTokens: string[];
  /** Host (and port) the registry's service name is. */
  host: string;
}

/** The request as one curl command line (printed with every failure). */
export function reproduce(req: FuzzRequest, baseUrl: string): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl', '-sS', '--path-as-is', '-X', req.method];
  for (const [k, v] of Object.entries(req.headers)) parts.push('-H', q(`${k}: ${v}`));
  if (req.body !== undefined) parts.push('--data-binary', q(req.body.length > 2000 ? `${req.body.slice(0, 2000)}…(${req.body.length} chars)` : req.body));
  const target = req.path.length > 2000 ? `${req.path.slice(0, 2000)}…(${req.path.length} chars)` : req.path;
  parts.push(q(`${baseUrl}${target}`));
  return parts.join(' ');
}

/**
 * The request target as a client sends it: characters outside printable ASCII (spaces,
 * unicode) percent-encoded as UTF-8, the rest (the dialect's structure) left raw. A lone
 * surrogate, which has no UTF-8, becomes `%ED%A0%80` (its would-be bytes), as a careless
 * client would send it. Mutation afterwards may still put raw bytes back.
 */
export function clientEncode(path: string): string {
  return path.replace(/[^\x21-\x7e]/gu, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return '%ED%A0%80';
    }
  });
}
