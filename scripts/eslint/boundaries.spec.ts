import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// Runs the repository's own ESLint config (eslint.config.js) on code strings placed at
// paths of the tree, so these are the rules `npm run lint` applies.
const root = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'flotilla/boundaries' || m.ruleId === 'no-restricted-syntax').map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import boundaries (flotilla/boundaries)', { timeout: 30_000 }, () => {
  it("refuses a server feature importing another feature's internals, and allows its index.ts", async () => {
    const file = 'packages/server/src/features/account/boundary-fixture.ts';
    expect(await problems(file, "import { createUser } from '../users/user.service.js';\nexport { createUser };\n")).toEqual([
      "flotilla/boundaries: '../users/user.service.js' is internal to the users feature: import what it shares from 'users/index.js'",
    ]);
    expect(await problems(file, "import { createUser } from '../users/index.js';\nexport { createUser };\n")).toEqual([]);
    expect(await problems(file, "import { x } from './account-deletion.js';\nexport { x };\n")).toEqual([]);
    expect(await problems(file, "export { x } from '../users/platform-admin.js';\n")).toHaveLength(1);
  });

  it('refuses infra importing a feature, even its index.ts', async () => {
    const file = 'packages/server/src/infra/auth/boundary-fixture.ts';
    expect(await problems(file, "import { setup } from '../../features/auth/index.js';\nexport { setup };\n")).toEqual([
      "flotilla/boundaries: infra imports no feature ('../../features/auth/index.js')",
    ]);
  });

  it("refuses a feature importing the OData engine's internals, and allows its index.ts", async () => {
    const file = 'packages/server/src/features/actions/boundary-fixture.ts';
    expect(await problems(file, "import { compileAffectedIds } from '../../infra/odata/query.js';\nexport { compileAffectedIds };\n")).toEqual([
      "flotilla/boundaries: '../../infra/odata/query.js' is internal to the OData engine: import it from 'infra/odata/index.js'",
    ]);
    expect(await problems(file, "import { odataActionableIds } from '../../infra/odata/index.js';\nexport { odataActionableIds };\n")).toEqual([]);
  });

  it('refuses the model importing another package', async () => {
    const file = 'packages/model/src/boundary-fixture.ts';
    expect(await problems(file, "import type { Db } from '../../server/src/infra/db/db.js';\nexport type { Db };\n")).toHaveLength(1);
    expect(await problems(file, "import { startAgent } from '@flotilla/agent';\nexport { startAgent };\n")).toHaveLength(1);
  });

  it("refuses deep imports of another package's src, and allows its name", async () => {
    const file = 'bench/boundary-fixture.ts';
    expect(await problems(file, "import { WsConnection } from '../packages/agent/src/net/ws-client.js';\nexport { WsConnection };\n")).toEqual([
      "flotilla/boundaries: '../packages/agent/src/net/ws-client.js' reaches into packages/agent's files: import the package by its name (@flotilla/…)",
    ]);
    expect(await problems(file, "import { WsConnection } from '@flotilla/agent/src/net/ws-client.js';\nexport { WsConnection };\n")).toHaveLength(1);
    expect(await problems(file, "import { WsConnection } from '@flotilla/agent';\nexport { WsConnection };\n")).toEqual([]);
  });

  it('refuses web features importing each other, and components/ or lib/ importing a feature', async () => {
    const code = "import { getSession } from '../features/auth/api/get-session';\nexport { getSession };\n";
    expect(await problems('packages/web/src/lib/boundary-fixture.ts', code)).toEqual([
      "flotilla/boundaries: shared components/ and lib/ import no feature ('../features/auth/api/get-session')",
    ]);
    expect(await problems('packages/web/src/components/boundary-fixture.ts', code)).toHaveLength(1);
    expect(await problems('packages/web/src/features/fleets/boundary-fixture.ts', "import { getSession } from '../auth/api/get-session';\nexport { getSession };\n")).toHaveLength(1);
    // Route modules compose features.
    expect(await problems('packages/web/src/app/routes/boundary-fixture.ts', code.replace('../', '../../'))).toEqual([]);
  });
});

describe('hand-written SQL only in repositories', { timeout: 30_000 }, () => {
  const code = "import type { Db } from '../../infra/db/db.js';\nexport const f = (db: Db) => db.query('SELECT 1');\n";

  it('refuses db.query in a feature file that is not a repository', async () => {
    expect(await problems('packages/server/src/features/auth/boundary-fixture.ts', code)).toEqual([
      'no-restricted-syntax: Hand-written SQL belongs in a <domain>.repository.ts (call a repository function or the OData engine).',
    ]);
  });

  it('allows it in a repository and in tests', async () => {
    expect(await problems('packages/server/src/features/auth/auth.repository.ts', code)).toEqual([]);
    expect(await problems('packages/server/src/features/auth/boundary-fixture.spec.ts', code)).toEqual([]);
  });
});
