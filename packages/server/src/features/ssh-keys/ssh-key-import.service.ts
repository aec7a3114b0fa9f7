import { importedKeyTitles, sshKeyIdentity, validateSshKey } from '@flotilla/model';
import type { AppContext } from '../../infra/app/context.js';
import type { Db } from '../../infra/db/db.js';
import { BadGatewayError, BadRequestError, ConflictError, NotFoundError } from '../../infra/errors.js';
import { fetchOutsideText } from '../../infra/http/outside-fetch.js';
import { odataPost, odataRead, type DataContext } from '../../infra/odata/index.js';

export interface SshKeyImportOptions {
  /** Where `<username>.keys` is read (FLOTILLA_SSH_KEYS_URL, default FLOTILLA_CODE_HOST_URL: https://github.com). */
  keysUrl: string;
  timeoutMs: number;
}

export const SSH_KEY_FETCH_TIMEOUT_MS = 10_000;
/** A user's keys file is a few KB; anything far larger is not one. */
const MAX_KEYS_BYTES = 256 * 1024;
const USERNAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9_])?$/;

/** 'GitHub' for the default host (the spec's wording), else the host and port. */
export function keysHostLabel(keysUrl: string): string {
  const url = new URL(keysUrl);
  return url.hostname === 'github.com' ? 'GitHub' : url.host;
}

export const noKeysMessage = (username: string, host: string) => `No SSH keys were found for ${username} on ${host}`;
export const allSavedMessage = (username: string) => `All of the SSH keys of ${username} are already saved`;

/** The public keys the code host lists for `username` (lines of `<base>/<username>.keys`); invalid lines are skipped. */
export async function fetchCodeHostKeys(opts: SshKeyImportOptions, username: string): Promise<string[]> {
  const host = keysHostLabel(opts.keysUrl);
  const url = `${opts.keysUrl.replace(/\/+$/, '')}/${encodeURIComponent(username)}.keys`;
  const failed = `Failed retrieving the SSH keys of ${username} from ${host}`;
  // No redirects (the helper's default): a redirect elsewhere could point the server at an internal address.
  const text = await fetchOutsideText(url, {
    accept: 'text/plain',
    timeoutMs: opts.timeoutMs,
    maxBytes: MAX_KEYS_BYTES,
    failed,
    notFound: noKeysMessage(username, host),
  });
  if (text === null) throw new BadGatewayError(`${failed}: the answer is too large`);
  return text
    .split(/\r?\n/)
    .map((line) => validateSshKey('imported', line))
    .flatMap((v) => ('error' in v ? [] : [v.publicKey]));
}

/**
 * Imports `username`'s keys from the code host for the caller (spec 1 §5): keys already
 * saved are skipped, the others are titled 'GitHub Key N' (first unused N) and created
 * through the data API (the caller's create rule, one transaction).
 */
export async function importSshKeys(
  app: AppContext,
  db: Db,
  ctx: DataContext,
  userId: number,
  opts: SshKeyImportOptions,
  rawUsername: unknown,
): Promise<Record<string, unknown>[]> {
  const username = typeof rawUsername === 'string' ? rawUsername.trim() : '';
  if (username === '') throw new BadRequestError('The username is mandatory!');
  if (!USERNAME.test(username)) throw new BadRequestError('The username may contain only letters, digits, hyphens, dots and underscores');
  const fetched = await fetchCodeHostKeys(opts, username);
  if (fetched.length === 0) throw new NotFoundError(noKeysMessage(username, keysHostLabel(opts.keysUrl)));
  return db.tx(async (tx) => {
    const existing = await odataRead<{ title: string; public_key: string }>(
      tx,
      ctx,
      `/user__has__public_key?$select=title,public_key&$filter=user eq ${userId}`,
    );
    const saved = new Set(existing.map((k) => sshKeyIdentity(k.public_key)));
    const fresh: string[] = [];
    for (const key of fetched) {
      const id = sshKeyIdentity(key);
      if (saved.has(id)) continue;
      saved.add(id);
      fresh.push(key);
    }
    if (fresh.length === 0) throw new ConflictError(allSavedMessage(username));
    const titles = importedKeyTitles(
      existing.map((k) => k.title),
      fresh.length,
    );
    const created: Record<string, unknown>[] = [];
    for (const [i, key] of fresh.entries()) {
      const { entity } = await odataPost(app, tx, ctx, '/user__has__public_key', { title: titles[i], public_key: key, user: userId });
      created.push(entity);
    }
    return created;
  });
}
