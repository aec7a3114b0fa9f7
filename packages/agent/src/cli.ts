import { isIP } from 'node:net';
import { parseArgs } from 'node:util';

/** Where the CLI writes: normal output and diagnostics. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Exit codes of `flotilla-agent`. */
export const EXIT = {
  ok: 0,
  usage: 1,
  failed: 2,
} as const;

export const USAGE = `Usage: flotilla-agent <command> [options]

The Flotilla device agent.

Commands:
  run --config <file> [--engine docker|podman|none] [--allow-power] [--allow-host-shell]
      [--config-hook <executable>] [--os-update-hook <executable>]
      Run the agent on this Linux device: register with the provisioning key from
      <file>, poll the target state, report state and real host metrics, keep the
      cloud link open and answer device actions. With --engine docker or podman it
      pulls the release's images and runs one container per service; with
      --engine none (the default) it runs no containers and simulates updates
      (see \`run --help\`).

  simulate --api <url> --provisioning-key <key> --count <n>
      Simulate <n> virtual devices in this process against the API at <url>,
      registering them with <key> (heartbeats, drifting metrics, updates,
      actions, reboots).

  help, --help, -h
      Show this help.

Run \`flotilla-agent <command> --help\` for one command's options.
`;

const RUN_USAGE = `Usage: flotilla-agent run --config <file> [--engine docker|podman|none] [--allow-power]
                           [--allow-host-shell] [--config-hook <executable>]
                           [--os-update-hook <executable>]

Options:
  --config <file>   config.json as balenaOS writes it: apiEndpoint, applicationId,
                    deviceType, apiKey (provisioning key), optional uuid and
                    deviceApiKey (generated and written back when missing),
                    appUpdatePollInterval (ms), updateLockPath
  --engine <kind>   docker, podman or none (default: $FLOTILLA_AGENT_ENGINE, else
                    none). The engine's socket comes from DOCKER_HOST (unix:// or
                    tcp://), else /var/run/docker.sock, /run/podman/podman.sock,
                    $XDG_RUNTIME_DIR/podman/podman.sock
  --allow-power     with an engine: reboot and shutdown actions really run
                    \`systemctl reboot\` / \`systemctl poweroff\` (refused otherwise)
  --allow-host-shell
                    the web terminal may open a shell on this host (as the agent's
                    user, in a pseudo-terminal); off by default: host terminals are
                    refused and only service containers can be opened
  --config-hook <executable>
                    (default: $FLOTILLA_CONFIG_HOOK) run with the configuration
                    variables the agent does not apply itself as JSON on stdin
                    whenever they change, so the host can map them to its own
                    settings (config.txt…); a failure is logged and retried on the
                    next change; variables marked will_reboot then reboot the host
                    (with --allow-power, once the update lock is free)
  --os-update-hook <executable>
                    (default: $FLOTILLA_OS_UPDATE_HOOK) installs a host OS version
                    when the dashboard or balena-sdk's startOsUpdate asks: run with
                    the target version and the image location as arguments (and in
                    FLOTILLA_OS_UPDATE_* variables), it prints \`progress <0-100> <step>\`
                    lines, optionally \`version <os version>\`, and exits 0 once the
                    OS is installed; the agent then reboots into it (with an engine,
                    only with --allow-power) and reports the new os_version. Without
                    it OS updates are refused (docs/agent.md)
  -h, --help        show this help

What it does:
  - registers with the provisioning key, then drops it from the file;
  - polls GET /device/v3/{uuid}/state (ETag, jitter, back-off on errors) and
    reports PATCH /device/v3/state with this host's CPU, memory, storage and
    temperature;
  - with an engine: pulls each image with the device key, creates and starts
    one container per service (download-then-kill, or kill-then-download by
    the io.balena.update.strategy label), removes what the release no longer
    lists, reports each service's real status, acts on real containers;
  - with --engine none it runs no containers: a new release is "downloaded" (simulated, with
    progress) and its services are reported as running; reboot drops the cloud
    link and restarts the agent in-process, shutdown stops the agent;
  - while the update lock file exists (default /tmp/flotilla/updates.lock),
    actions that stop services answer 423 unless forced, and a new release
    waits before stopping any running service;
  - configuration variables: BALENA_SUPERVISOR_POLL_INTERVAL, local mode
    (RESIN_SUPERVISOR_LOCAL_MODE=1: the cloud's release is no longer applied,
    the device still reports) and RESIN_SUPERVISOR_OVERRIDE_LOCK=1 (the update
    lock is ignored) are applied by the agent; every other one goes to the
    config hook.
`;

const SIMULATE_USAGE = `Usage: flotilla-agent simulate --api <url> --provisioning-key <key> --count <n>

Options:
  --api <url>               base URL of the Flotilla API, e.g. http://localhost:8080
  --provisioning-key <key>  fleet provisioning key used to register the devices;
                            --provisioning-key=<key> also works, and is needed for
                            an older key that starts with "-"
  --count <n>               number of virtual devices (a positive integer)
  --fleet <id>              the key's fleet id (read through the API when omitted)
  --device-type <slug>      device type to register (default: the fleet's)
  --locations               give devices coordinates around a few cities
  --seed <s>                reproducible devices and randomness; the same seed
                            reuses the same devices on the next run
  --poll-interval <s>       fixed poll interval in seconds (default: the fleet's
                            BALENA_SUPERVISOR_POLL_INTERVAL, else 60)
  --ramp <s>                spread the devices' boots over <s> seconds (default:
                            2 ms per device, at most 30 s)
  --no-link                 do not open cloud links (HTTP polling and reports only)
  --log-rate <n>            service log lines per minute per device (default 2; 0
                            sends only system lines), over one log stream per device
  --no-logs                 send no logs at all
  --fail-agent-update       a newer agent build the target names "fails to start":
                            the devices report the failure and keep their version
  --source-addresses <a,b>  spread the devices' connections over these local
                            addresses (comma separated), each with its own range
                            of ephemeral ports: device i's cloud link and log
                            stream use address i mod n, the shared poll pool the
                            first. On one Linux host every 127.x.y.z is loopback
                            (e.g. 127.0.0.2,127.0.0.3); one address to one server
                            runs short of ports near 14,000 connections
  --stats-file <path>       rewrite <path> every 5 s with the simulation's counters
                            and its poll latency histogram (JSON)
  --applied-file <path>     rewrite <path> every 5 s with what each device applied
                            (JSON by uuid: configuration, host configuration,
                            each service's environment, reboots for configuration)
  --quiet                   no per-device log lines, only the summary
  -h, --help                show this help

Every option that takes a value accepts --option <value> and --option=<value>.

Virtual devices run no containers either: updates are simulated (downloading with
a percentage, applying changes, done).
`;

export type Command =
  | { kind: 'help'; text: string }
  | { kind: 'run'; config: string; engine: 'docker' | 'podman' | 'none'; allowPower: boolean; allowHostShell?: boolean; configHook?: string; osUpdateHook?: string }
  | {
      kind: 'simulate';
      api: string;
      provisioningKey: string;
      count: number;
      fleetId?: number;
      deviceType?: string;
      locations?: boolean;
      seed?: number;
      pollIntervalS?: number;
      rampS?: number;
      noLink?: boolean;
      logRate?: number;
      noLogs?: boolean;
      failAgentUpdate?: boolean;
      statsFile?: string;
      sourceAddresses?: string[];
      appliedFile?: string;
      quiet?: boolean;
    }
  | { kind: 'error'; message: string; usage: string };

const HELP_FLAGS = new Set(['help', '--help', '-h']);

/** Turns the arguments after the program name into a command; never throws. */
export function parseCommand(argv: readonly string[], env: Record<string, string | undefined> = {}): Command {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_FLAGS.has(name)) return { kind: 'help', text: USAGE };
  switch (name) {
    case 'run':
      return parseRun(rest, env);
    case 'simulate':
      return parseSimulate(rest);
    default:
      return { kind: 'error', message: `unknown command: ${name}`, usage: USAGE };
  }
}

const ENGINES = ['docker', 'podman', 'none'] as const;

function parseRun(args: string[], env: Record<string, string | undefined>): Command {
  const parsed = parseOptions(
    args,
    { config: { type: 'string' }, engine: { type: 'string' }, 'allow-power': { type: 'boolean' }, 'allow-host-shell': { type: 'boolean' }, 'config-hook': { type: 'string' }, 'os-update-hook': { type: 'string' } },
    RUN_USAGE,
  );
  if (!parsed.ok) return parsed.command;
  const config = text(parsed.values.config);
  if (config === undefined) return usageError('run: --config <file> is required', RUN_USAGE);
  const fromFlag = text(parsed.values.engine);
  const engine = fromFlag ?? (env.FLOTILLA_AGENT_ENGINE || 'none');
  if (!(ENGINES as readonly string[]).includes(engine)) {
    const source = fromFlag !== undefined ? '--engine' : 'FLOTILLA_AGENT_ENGINE';
    return usageError(`run: ${source} must be docker, podman or none, got "${engine}"`, RUN_USAGE);
  }
  const configHook = text(parsed.values['config-hook']) ?? (env.FLOTILLA_CONFIG_HOOK || undefined);
  const osUpdateHook = text(parsed.values['os-update-hook']) ?? (env.FLOTILLA_OS_UPDATE_HOOK || undefined);
  return {
    kind: 'run',
    config,
    engine: engine as (typeof ENGINES)[number],
    allowPower: parsed.values['allow-power'] === true,
    ...(parsed.values['allow-host-shell'] === true ? { allowHostShell: true } : {}),
    ...(configHook !== undefined ? { configHook } : {}),
    ...(osUpdateHook !== undefined ? { osUpdateHook } : {}),
  };
}

function parseSimulate(args: string[]): Command {
  const parsed = parseOptions(
    args,
    {
      api: { type: 'string' },
      'provisioning-key': { type: 'string' },
      count: { type: 'string' },
      fleet: { type: 'string' },
      'device-type': { type: 'string' },
      locations: { type: 'boolean' },
      seed: { type: 'string' },
      'poll-interval': { type: 'string' },
      ramp: { type: 'string' },
      'no-link': { type: 'boolean' },
      'log-rate': { type: 'string' },
      'no-logs': { type: 'boolean' },
      'fail-agent-update': { type: 'boolean' },
      'stats-file': { type: 'string' },
      'applied-file': { type: 'string' },
      'source-addresses': { type: 'string' },
      quiet: { type: 'boolean' },
    },
    SIMULATE_USAGE,
  );
  if (!parsed.ok) return parsed.command;
  const api = text(parsed.values.api);
  const provisioningKey = text(parsed.values['provisioning-key']);
  const count = text(parsed.values.count);
  if (api === undefined || provisioningKey === undefined || count === undefined) {
    const missing = [
      api === undefined && '--api <url>',
      provisioningKey === undefined && '--provisioning-key <key>',
      count === undefined && '--count <n>',
    ].filter(Boolean);
    return usageError(`simulate: missing ${missing.join(', ')}`, SIMULATE_USAGE);
  }
  if (!isHttpUrl(api)) return usageError(`simulate: --api must be an http(s) URL, got "${api}"`, SIMULATE_USAGE);
  if (!/^[1-9][0-9]*$/.test(count)) {
    return usageError(`simulate: --count must be a positive integer, got "${count}"`, SIMULATE_USAGE);
  }
  const command: Command & { kind: 'simulate' } = { kind: 'simulate', api, provisioningKey, count: Number(count) };
  const fleet = text(parsed.values.fleet);
  if (fleet !== undefined) {
    if (!/^[1-9][0-9]*$/.test(fleet)) return usageError(`simulate: --fleet must be a fleet id, got "${fleet}"`, SIMULATE_USAGE);
    command.fleetId = Number(fleet);
  }
  const deviceType = text(parsed.values['device-type']);
  if (deviceType !== undefined) command.deviceType = deviceType;
  if (parsed.values.locations === true) command.locations = true;
  if (parsed.values.quiet === true) command.quiet = true;
  const seed = text(parsed.values.seed);
  if (seed !== undefined) {
    if (!/^[0-9]+$/.test(seed)) return usageError(`simulate: --seed must be a non-negative integer, got "${seed}"`, SIMULATE_USAGE);
    command.seed = Number(seed);
  }
  const poll = text(parsed.values['poll-interval']);
  if (poll !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(poll) || Number(poll) < 1) return usageError(`simulate: --poll-interval must be at least 1 (seconds), got "${poll}"`, SIMULATE_USAGE);
    command.pollIntervalS = Number(poll);
  }
  const ramp = text(parsed.values.ramp);
  if (ramp !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(ramp)) return usageError(`simulate: --ramp must be a number of seconds, got "${ramp}"`, SIMULATE_USAGE);
    command.rampS = Number(ramp);
  }
  if (parsed.values['no-link'] === true) command.noLink = true;
  const logRate = text(parsed.values['log-rate']);
  if (logRate !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(logRate) || Number(logRate) > 600_000) return usageError(`simulate: --log-rate must be a number of lines per minute (0 to 600000), got "${logRate}"`, SIMULATE_USAGE);
    command.logRate = Number(logRate);
  }
  if (parsed.values['no-logs'] === true) command.noLogs = true;
  if (parsed.values['fail-agent-update'] === true) command.failAgentUpdate = true;
  const statsFile = text(parsed.values['stats-file']);
  if (statsFile !== undefined) command.statsFile = statsFile;
  const appliedFile = text(parsed.values['applied-file']);
  if (appliedFile !== undefined) command.appliedFile = appliedFile;
  const sources = text(parsed.values['source-addresses']);
  if (sources !== undefined) {
    const list = sources.split(',').map((a) => a.trim());
    const bad = list.find((a) => isIP(a) === 0);
    if (bad !== undefined) return usageError(`simulate: --source-addresses takes IP addresses separated by commas, got "${bad}"`, SIMULATE_USAGE);
    command.sourceAddresses = list;
  }
  return command;
}

/** A non-empty string option value, or undefined. */
function text(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;
type OptionValues = Record<string, string | boolean | undefined>;
type ParsedOptions = { ok: true; values: OptionValues } | { ok: false; command: Command };

/** Strict option parsing; `--help` wins over everything else. */
function parseOptions(args: string[], spec: OptionSpec, usage: string): ParsedOptions {
  if (args.some((a) => a === '--help' || a === '-h')) return { ok: false, command: { kind: 'help', text: usage } };
  try {
    const { values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false });
    return { ok: true, values };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // parseArgs will not take a separate value that looks like an option ("-Xy…").
    const ambiguous = /^Option '(--[a-z-]+)[^']*' argument is ambiguous/.exec(message);
    if (ambiguous) return { ok: false, command: usageError(`${ambiguous[1]}: a value that starts with "-" must be given as ${ambiguous[1]}=<value>`, usage) };
    return { ok: false, command: usageError(message, usage) };
  }
}

function usageError(message: string, usage: string): Command {
  return { kind: 'error', message, usage };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Runs a long-lived command (run / simulate); resolves with the exit code when it ends. */
export type CommandRunner = (command: Extract<Command, { kind: 'run' | 'simulate' }>, out: CliOutput) => Promise<number>;

/**
 * The whole CLI: parses `argv` (the arguments after the program name), writes to `out`
 * and returns the exit code — synchronously for help and usage errors, as a promise for
 * the long-lived commands (which `runner` executes; the bin passes the real one).
 */
export function main(argv: readonly string[], out: CliOutput, runner?: CommandRunner, env: Record<string, string | undefined> = process.env): number | Promise<number> {
  const command = parseCommand(argv, env);
  switch (command.kind) {
    case 'help':
      out.stdout(command.text);
      return EXIT.ok;
    case 'error':
      out.stderr(`flotilla-agent: ${command.message}\n\n${command.usage}`);
      return EXIT.usage;
    case 'run':
    case 'simulate':
      if (!runner) {
        out.stderr(`flotilla-agent: no runner for \`${command.kind}\`\n`);
        return EXIT.failed;
      }
      return runner(command, out);
  }
}
