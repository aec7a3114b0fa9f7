import { getSdk } from 'balena-sdk';

type Sdk = ReturnType<typeof getSdk>;

/** pine's requests without balena-sdk's per-resource typing (the server's model is Flotilla's). */
interface LoosePine {
  get(params: { resource: string; id?: number; options?: Record<string, unknown> }): Promise<unknown>;
  post(params: { resource: string; body: Record<string, unknown> }): Promise<unknown>;
  patch(params: { resource: string; id: number; body: Record<string, unknown> }): Promise<unknown>;
}

/** Who a token belongs to, as `/actor/v1/whoami` answers. */
export type Whoami = { actorType: 'user'; username: string; email: string | null } | { actorType: 'application'; slug: string } | { actorType: 'device'; uuid: string };

export interface Fleet {
  id: number;
  slug: string;
}

/** What deploy needs from the API (/v7 through balena-sdk). */
export interface Api {
  whoami(): Promise<Whoami>;
  findFleet(ref: string): Promise<Fleet>;
  /** Registry credentials for pushes: the token as password (docs: interface REGISTRY). */
  registryAuth(): Promise<{ username: string; password: string }>;
  createRelease(body: Record<string, unknown>): Promise<{ id: number }>;
  patchRelease(id: number, body: Record<string, unknown>): Promise<void>;
  getOrCreateService(fleetId: number, name: string): Promise<number>;
  createImage(body: Record<string, unknown>): Promise<{ id: number; is_stored_at__image_location: string }>;
  patchImage(id: number, body: Record<string, unknown>): Promise<void>;
  linkImage(imageId: number, releaseId: number): Promise<void>;
}

/** A readable message from a balena-sdk error (its `statusCode` and the server's text). */
export function apiErrorMessage(err: unknown): string {
  const e = err as { statusCode?: number; message?: string; body?: unknown };
  const body = typeof e.body === 'string' ? e.body : e.body !== undefined ? JSON.stringify(e.body) : '';
  const message = e.message ?? String(err);
  return e.statusCode ? `${message}${body && !message.includes(body) ? `: ${body}` : ''} (HTTP ${e.statusCode})` : message;
}

export async function connectApi(apiUrl: string, token: string): Promise<Api> {
  const sdk: Sdk = getSdk({ apiUrl, dataDirectory: false, isBrowser: false });
  await sdk.auth.loginWithToken(token);
  const pine = sdk.pine as unknown as LoosePine;
  let me: Whoami | undefined;
  const whoami = async (): Promise<Whoami> => {
    if (me) return me;
    const who = await sdk.auth.whoami();
    if (!who) throw new Error('the token was not accepted: log in again (flotilla login)');
    me = who as Whoami;
    return me;
  };
  return {
    whoami,
    async findFleet(ref) {
      const filter = ref.includes('/') ? { slug: ref.toLowerCase() } : { app_name: ref };
      const found = (await pine.get({ resource: 'application', options: { $select: ['id', 'slug'], $filter: filter } })) as Fleet[];
      if (found.length === 0) throw new Error(`fleet "${ref}" not found (or you cannot see it)`);
      if (found.length > 1) throw new Error(`several fleets are named "${ref}": use <organization>/<fleet> (${found.map((f) => f.slug).join(', ')})`);
      return found[0]!;
    },
    async registryAuth() {
      const who = await whoami();
      // A user's username, else any name: the registry's token endpoint identifies API keys by the key alone.
      return { username: who.actorType === 'user' ? who.username : 'flotilla', password: token };
    },
    async createRelease(body) {
      return (await pine.post({ resource: 'release', body })) as { id: number };
    },
    async patchRelease(id, body) {
      await pine.patch({ resource: 'release', id, body });
    },
    async getOrCreateService(fleetId, name) {
      const existing = (await pine.get({
        resource: 'service',
        options: { $select: ['id'], $filter: { application: fleetId, service_name: name } },
      })) as { id: number }[];
      if (existing[0]) return existing[0].id;
      try {
        return ((await pine.post({ resource: 'service', body: { application: fleetId, service_name: name } })) as { id: number }).id;
      } catch (err) {
        // Another deploy created it meanwhile.
        const again = (await pine.get({ resource: 'service', options: { $select: ['id'], $filter: { application: fleetId, service_name: name } } })) as { id: number }[];
        if (again[0]) return again[0].id;
        throw err;
      }
    },
    async createImage(body) {
      const created = (await pine.post({ resource: 'image', body })) as { id: number; is_stored_at__image_location?: string };
      if (created.is_stored_at__image_location) return created as { id: number; is_stored_at__image_location: string };
      const read = (await pine.get({ resource: 'image', id: created.id, options: { $select: ['id', 'is_stored_at__image_location'] } })) as {
        id: number;
        is_stored_at__image_location: string;
      };
      return read;
    },
    async patchImage(id, body) {
      await pine.patch({ resource: 'image', id, body });
    },
    async linkImage(imageId, releaseId) {
      await pine.post({ resource: 'image__is_part_of__release', body: { image: imageId, is_part_of__release: releaseId } });
    },
  };
}
