import { resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { apiErrorMessage, connectApi, type Whoami } from './api.js';
import { ComposeError } from './compose.js';
import { configPath, normaliseApiUrl, readConfig, removeConfig, resolveConfig, writeConfig, type Env } from './config.js';
import { deploy } from './deploy.js';
import { connectEngine } from './engine.js';
import { receiveTokenFromBrowser } from './login.js';
import type { CliOutput } from './output.js';
import { loadProject, type LoadedProject } from './project.js';
import { publishSupervisorRelease } from './supervisor.js';

export type { CliOutput } from './output.js';

/** Exit codes of `flotilla`. */
export const EXIT = { ok: 0, usage: 1, failed: 2 } as const;

export const USAGE = `Usage: flotilla <command> [options]

Commands:
  login [--token <token>] [--api <url>]
      Log in to a Flotilla server: with a session token or API key, or (without
      --token) through the dashboard in your browser.
  whoami
      Show who you are logged in as.
  logout
      Forget the saved login (~/.flotilla/config.json).
  deploy <organization/fleet> [--source <dir>] [--note <text>] [--semver <x.y.z>]
         [--draft] [--dry-run]
      Build the project's services with the local Docker or Podman engine, push
      them to the server's registry and create the release.
  deploy --supervisor --version <x.y.z> --file <agent.mjs> [--arch <arch|all>]
      Publish a Flotilla agent build as a supervisor release (platform
      administrators).
  help, --help, -h
      Show this help.

Environment: FLOTILLA_API_URL and FLOTILLA_TOKEN override the saved login;
FLOTILLA_CONFIG_DIR moves it (default ~/.flotilla); DOCKER_HOST names the engine.
`;

const LOGIN_USAGE = `Usage: flotilla login [--token <token>] [--api <url>] [--port <n>] [--timeout <s>]

Options:
  --token <token>  a session token or API key (from the dashboard's preferences)
  --api <url>      the Flotilla server (default: FLOTILLA_API_URL, the saved one,
                   else http://localhost:8080)
  --port <n>       local port for the browser hand-over (default: any free port)
  --timeout <s>    how long to wait for the browser (default 300)

Without --token, open the printed URL in a browser where you are signed in to the
dashboard and confirm; the dashboard hands your session to this command.
Saves the API URL and token to ~/.flotilla/config.json (mode 0600).
`;

const DEPLOY_USAGE = `Usage: flotilla deploy <organization/fleet> [options]
       flotilla deploy --supervisor --version <x.y.z> --file <agent.mjs> [--arch <arch|all>]

Options:
  --source <dir>    project directory (default: the current directory) holding
                    docker-compose.yml / docker-compose.yaml, or one Dockerfile
                    (deployed as the service "main")
  --note <text>     the release's note
  --semver <x.y.z>  the release's version
  --draft           create a draft release (not final: devices tracking the
                    latest release do not get it)
  --dry-run         check the project and print what would be built; build,
                    push and create nothing
  -h, --help        show this help

Publishing an agent (supervisor) release, platform administrators only:
  --supervisor      publish a Flotilla agent build instead of a fleet release
  --version <x.y.z> the supervisor release's version; the build's banner must
                    declare the same (// flotilla-agent <x.y.z>: …)
  --file <path>     the single-file agent build (like GET /download/agent)
  --arch <arch>     the CPU architecture (rpi, armv7hf, aarch64, amd64) or
                    all (default: all; the agent is plain JavaScript)

Supported compose keys: see docs/cli.md.
`;

export interface CliDeps {
  env: Env;
  cwd: string;
}

/** Parses argv (without node and the script) and runs the command; returns the exit code. */
export async function main(argv: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        out.stdout(USAGE);
        return command === undefined ? EXIT.usage : EXIT.ok;
      case 'login':
        return await loginCommand(rest, out, deps);
      case 'whoami':
        return await whoamiCommand(rest, out, deps);
      case 'logout':
        return await logoutCommand(rest, out, deps);
      case 'deploy':
        return await deployCommand(rest, out, deps);
      default:
        out.stderr(`Unknown command "${command}".\n\n${USAGE}`);
        return EXIT.usage;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      out.stderr(`${err.message}\n`);
      return EXIT.usage;
    }
    out.stderr(`Error: ${apiErrorMessage(err)}\n`);
    return EXIT.failed;
  }
}

class UsageError extends Error {}

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string }>;

function parse(args: string[], options: OptionSpec, usage: string): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${usage}`);
  }
}

function describe(who: Whoami): string {
  switch (who.actorType) {
    case 'user':
      return `${who.username}${who.email ? ` <${who.email}>` : ''}`;
    case 'application':
      return `the fleet ${who.slug} (a provisioning or fleet key)`;
    case 'device':
      return `the device ${who.uuid}`;
  }
}

async function loginCommand(args: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  const { values, positionals } = parse(args, { token: { type: 'string' }, api: { type: 'string' }, port: { type: 'string' }, timeout: { type: 'string' } }, LOGIN_USAGE);
  if (values.help) {
    out.stdout(LOGIN_USAGE);
    return EXIT.ok;
  }
  if (positionals.length) throw new UsageError(`Unexpected argument "${positionals[0]}".\n\n${LOGIN_USAGE}`);
  const saved = await readConfig(deps.env);
  let apiUrl: string;
  try {
    apiUrl = normaliseApiUrl((values.api as string | undefined) || deps.env.FLOTILLA_API_URL || saved?.apiUrl || 'http://localhost:8080');
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const check = async (token: string): Promise<Whoami> => (await connectApi(apiUrl, token)).whoami();
  let token = values.token as string | undefined;
  if (token === undefined) {
    const port = values.port === undefined ? 0 : Number(values.port);
    const timeout = values.timeout === undefined ? 300 : Number(values.timeout);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
    if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError('--timeout must be a number of seconds');
    token = await receiveTokenFromBrowser(apiUrl, {
      port,
      timeoutMs: timeout * 1000,
      onUrl: (url) => out.stdout(`Open this URL in a browser where you are signed in to the dashboard, and confirm:\n\n  ${url}\n\nWaiting for the browser…\n`),
      check: (t) => check(t).then(() => true, () => false),
    });
  } else if (token === '') {
    throw new UsageError('--token must not be empty');
  }
  const who = await check(token);
  const path = await writeConfig(deps.env, { apiUrl, token });
  out.stdout(`Logged in to ${apiUrl} as ${describe(who)}\nSaved to ${path}\n`);
  return EXIT.ok;
}

async function credentials(deps: CliDeps): Promise<{ apiUrl: string; token: string }> {
  const config = await resolveConfig(deps.env);
  if (!config.token) throw new Error(`not logged in: run "flotilla login" (or set FLOTILLA_TOKEN); looked in ${configPath(deps.env)}`);
  return { apiUrl: config.apiUrl, token: config.token };
}

async function whoamiCommand(args: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  const { values } = parse(args, {}, 'Usage: flotilla whoami\n');
  if (values.help) {
    out.stdout('Usage: flotilla whoami\n');
    return EXIT.ok;
  }
  const { apiUrl, token } = await credentials(deps);
  const who = await (await connectApi(apiUrl, token)).whoami();
  out.stdout(`${describe(who)}\nAPI: ${apiUrl}\n`);
  return EXIT.ok;
}

async function logoutCommand(args: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  const { values } = parse(args, {}, 'Usage: flotilla logout\n');
  if (values.help) {
    out.stdout('Usage: flotilla logout\n');
    return EXIT.ok;
  }
  out.stdout((await removeConfig(deps.env)) ? `Logged out: removed ${configPath(deps.env)}\n` : 'Not logged in.\n');
  return EXIT.ok;
}

function printPlan(project: LoadedProject, out: CliOutput): void {
  out.stdout(`Project ${project.dir} (${project.source}): ${project.services.length} service${project.services.length === 1 ? '' : 's'}\n`);
  for (const s of project.services) {
    out.stdout(s.build ? `  ${s.name}: build ${s.build.context} (${s.build.dockerfile})\n` : `  ${s.name}: image ${s.image}\n`);
  }
  for (const key of project.ignored) out.stderr(`Warning: ${key} is ignored: flotilla-agent does not apply it\n`);
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

async function deployCommand(args: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      source: { type: 'string', short: 's' },
      note: { type: 'string' },
      semver: { type: 'string' },
      draft: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      supervisor: { type: 'boolean' },
      version: { type: 'string' },
      file: { type: 'string' },
      arch: { type: 'string' },
    },
    DEPLOY_USAGE,
  );
  if (values.help) {
    out.stdout(DEPLOY_USAGE);
    return EXIT.ok;
  }
  if (values.supervisor) return supervisorDeploy(values, positionals, out, deps);
  for (const option of ['version', 'file', 'arch'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} is for --supervisor only.\n\n${DEPLOY_USAGE}`);
  }
  if (positionals.length !== 1) throw new UsageError(`Name one fleet (<organization>/<fleet>).\n\n${DEPLOY_USAGE}`);
  const semver = values.semver as string | undefined;
  if (semver !== undefined && !SEMVER.test(semver)) throw new UsageError(`--semver must be a version like 1.2.3, not "${semver}"`);
  let project: LoadedProject;
  try {
    project = await loadProject((values.source as string | undefined) ?? deps.cwd);
  } catch (err) {
    if (!(err instanceof ComposeError)) throw err;
    out.stderr(`The project cannot be deployed:\n${err.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return EXIT.failed;
  }
  printPlan(project, out);
  if (values['dry-run']) {
    out.stdout('Dry run: the project is valid; nothing was built, pushed or created.\n');
    return EXIT.ok;
  }
  const { apiUrl, token } = await credentials(deps);
  const api = await connectApi(apiUrl, token);
  const fleet = await api.findFleet(positionals[0]!);
  const docker = connectEngine(deps.env);
  await docker.ping().catch((err: Error) => {
    throw new Error(`the container engine does not answer (${err.message}); set DOCKER_HOST or start Docker or Podman`);
  });
  await deploy(api, docker, fleet, project, { ...(semver !== undefined ? { semver } : {}), ...(values.note !== undefined ? { note: values.note as string } : {}), draft: values.draft === true }, out);
  return EXIT.ok;
}

const ARCH = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** `flotilla deploy --supervisor`: checks the arguments, then publishes the build (see supervisor.ts). */
async function supervisorDeploy(values: Record<string, string | boolean | undefined>, positionals: string[], out: CliOutput, deps: CliDeps): Promise<number> {
  if (positionals.length) throw new UsageError(`--supervisor publishes to the supervisor blocks, not to a fleet: remove "${positionals[0]}".\n\n${DEPLOY_USAGE}`);
  for (const option of ['source', 'note', 'semver', 'draft', 'dry-run'] as const) {
    if (values[option] !== undefined) throw new UsageError(`--${option} does not apply to --supervisor.\n\n${DEPLOY_USAGE}`);
  }
  const version = values.version as string | undefined;
  if (version === undefined) throw new UsageError(`--supervisor needs --version <x.y.z>.\n\n${DEPLOY_USAGE}`);
  if (!SEMVER.test(version)) throw new UsageError(`--version must be a version like 17.1.0, not "${version}"`);
  const file = values.file as string | undefined;
  if (!file) throw new UsageError(`--supervisor needs --file <agent.mjs>: the agent build to publish.\n\n${DEPLOY_USAGE}`);
  const arch = (values.arch as string | undefined) ?? 'all';
  if (!ARCH.test(arch)) throw new UsageError(`--arch must be a CPU architecture (like aarch64) or all, not "${arch}"`);
  const { apiUrl, token } = await credentials(deps);
  await publishSupervisorRelease(apiUrl, token, { version, arch, file: resolvePath(deps.cwd, file) }, out);
  return EXIT.ok;
}
