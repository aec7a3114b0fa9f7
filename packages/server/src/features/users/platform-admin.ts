import type { Db } from '../../infra/db/db.js';
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
  if (await platformAdministratorExists(db)) return;
  const password = opts.password ?? alphanumericSecret(96);
  const user = await createUser(db, { email: opts.email, password, platformRole: 'administrator', isVerified: true });
  announce(
    opts.password
      ? [`Created the platform administrator ${user.email} (username ${user.username}) with FLOTILLA_ADMIN_PASSWORD.`]
      : [
          `Created the platform administrator ${user.email} (username ${user.username}).`,
          `Its generated password, shown only this once: ${password}`,
        ],
  );
}
