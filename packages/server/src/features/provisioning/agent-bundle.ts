import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { AGENT_BUILD_BANNER, AGENT_VERSION } from '@flotilla/model';

/** The single-file agent a device downloads, and its strong ETag (content hash). */
export interface AgentBundle {
  body: Buffer;
  etag: string;
}

/** A bundle as the server serves it: with its gzipped body and the sha256 (hex) of the plain one. */
export interface ServedBundle extends AgentBundle {
  gzipped: Buffer;
  sha256: string;
}

const gzipAsync = promisify(gzip);

/** Bundles the agent of `agentDir()` at the first call and keeps it; a failed bundle is not kept (the next call tries again). */
export function agentBundleSource(agentDir: () => string): () => Promise<ServedBundle> {
  let pending: Promise<ServedBundle> | null = null;
  return () => {
    pending ??= bundleAgent(agentDir()).then(async (b) => ({ ...b, sha256: b.etag.slice(1, -1), gzipped: await gzipAsync(b.body, { level: 9 }) }));
    pending.catch(() => {
      pending = null;
    });
    return pending;
  };
}

/** The agent package's directory (packages/agent), found through its workspace link. */
export function defaultAgentDir(): string {
  // '@flotilla/agent' resolves to packages/agent/src/index.ts.
  return resolve(dirname(createRequire(import.meta.url).resolve('@flotilla/agent')), '..');
}

// The same program as packages/agent/bin/flotilla-agent.mjs, without the TypeScript loader.
// It tells the runner its own path: run starts as the launcher that swaps builds (self-update).
const ENTRY = `import { fileURLToPath } from 'node:url';
import { main } from './src/cli.ts';
import { runCommand, setSingleFileBuild } from './src/runner.ts';
setSingleFileBuild(fileURLToPath(import.meta.url));
process.exitCode = await main(
  process.argv.slice(2),
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  runCommand,
);
`;

// An ES module with CommonJS dependencies inside (ws, dockerode → docker-modem → ssh2): they
// call require() for Node's built-ins and read __dirname, which an ES module lacks.
const BANNER = [
  '#!/usr/bin/env node',
  `${AGENT_BUILD_BANNER}${AGENT_VERSION}: the Flotilla device agent in one file (needs Node.js >= 20). Served by GET /download/agent.`,
  "import { createRequire as __flotillaRequire } from 'node:module';",
  "import { fileURLToPath as __flotillaPath } from 'node:url';",
  "import { dirname as __flotillaDirname } from 'node:path';",
  'const require = __flotillaRequire(import.meta.url);',
  'const __filename = __flotillaPath(import.meta.url);',
  'const __dirname = __flotillaDirname(__filename);',
].join('\n');

/**
 * Bundles the agent (its sources and every dependency) into one ES module for Node ≥ 20 with
 * esbuild. Native add-ons are optional in the agent's dependencies and left out: ws falls
 * back to JavaScript without bufferutil/utf-8-validate, ssh2 (docker-modem's ssh:// hosts)
 * without cpu-features and its compiled crypto binding; each is required inside a try.
 * node-pty (the host shell) stays external too: the agent imports it when a host terminal
 * opens, and refuses the host shell with the reason where it is not installed.
 */
export async function bundleAgent(agentDir: string): Promise<AgentBundle> {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: agentDir, sourcefile: 'flotilla-agent.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'eof',
    logLevel: 'silent',
    banner: { js: BANNER },
    external: ['bufferutil', 'utf-8-validate', 'cpu-features', '@lydell/node-pty', '*.node'],
  });
  const body = Buffer.from(result.outputFiles[0]!.contents);
  return { body, etag: `"${createHash('sha256').update(body).digest('hex')}"` };
}
