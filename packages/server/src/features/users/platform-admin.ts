import type { Db } from '../../infra/db/db.js';
import { holdStartLock, START_LOCKS } from '../../infra/db/start-locks.js';
import { alphanumericSecret } from '../../infra/auth/secret.js';
import { platformAdministratorExists } from './user.repository.js';
import { createUser } from './user.service.js';

/**
 * On the first start, creates the platform administrator from FLOTILLA_ADMIN_EMAIL and
 * FLOTILLA_ADMIN_PASSWORD, or with a generated password that is printed once. There is
 * no fixed default password.
 */
export async function ensurePlatformAdmin(
  db: Db,
  opts: { email: string; password?: string },
  announce: (lines: string[]) => void,
): Promise<void> {
  const password = opts.password ?? alphanumericSecret(96);
  // Nodes starting together on a new database (issue 21): one creates the administrator, the
  // others wait for it and find it (else: 'This email is already taken', start-up failed).
  const user = await db.tx(async (tx) => {
    await holdStartLock(tx, START_LOCKS.admin);
    if (await platformAdministratorExists(tx)) return undefined;
    return createUser(tx, { email: opts.email, password, platformRole: 'administrator', isVerified: true });
  });
  if (!user) return;
  announce(
    opts.password
      ? [`Created the platform administrator ${user.email} (username ${user.username}) with FLOTILLA_ADMIN_PASSWORD.`]
      : [
          `Created the platform administrator ${user.email} (username ${user.username}).`,
          `Its generated password, shown only this once: ${password}`,
        ],
  );
}
