import type { Db } from '../../infra/db/db.js';
import { alphanumericSecret } from '../../infra/auth/secret.js';
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
  const { rowCount } = await db.query(`SELECT 1 FROM "user" WHERE platform_role = 'administrator' LIMIT 1`);
  if (rowCount > 0) return;
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
