import { pineGetOne } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';
import type { StatusSummary } from '../news-store';

/** A file or JSON of our own origin, without the session token (they are public). */
async function fromOrigin<T>(url: string): Promise<T> {
  const { body } = await sdk.request.send<T>({ method: 'GET', baseUrl: window.location.origin, url, sendToken: false });
  return body;
}

/** GET /buildtime.txt: the served build's time stamp (issue 19). */
export async function readBuildTime(): Promise<string> {
  const body = await fromOrigin<unknown>('/buildtime.txt');
  return typeof body === 'string' ? body : '';
}

/** GET /CHANGELOG.md, bundled with the build. */
export async function readChangelog(): Promise<string> {
  const body = await fromOrigin<unknown>('/CHANGELOG.md');
  return typeof body === 'string' ? body : '';
}

/** GET /config/status: null when no status feed is configured. */
export async function readStatus(): Promise<StatusSummary | null> {
  const body = await fromOrigin<Partial<StatusSummary> & { configured?: boolean }>('/config/status');
  if (body.configured !== true) return null;
  return {
    indicator: body.indicator ?? 'unknown',
    description: typeof body.description === 'string' ? body.description : '',
    incidents: Array.isArray(body.incidents) ? body.incidents : [],
  };
}

/** When the signed-in user was created (the changelog's new-user rule). */
export async function readUserCreatedAt(userId: number): Promise<Date | undefined> {
  const user = await pineGetOne('user', userId, { $select: ['created_at'] });
  return user?.created_at ? new Date(user.created_at) : undefined;
}
