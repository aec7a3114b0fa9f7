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
  notImplemented: 2,
} as const;

export const USAGE = `Usage: flotilla-agent <command> [options]

The Flotilla device agent.

Commands:
  run --config <file>
      Run the agent on this Linux device: register with the provisioning key from
      <file>, poll and apply the target state, report state and metrics, stream
      logs and keep the cloud link open.

  simulate --api <url> --provisioning-key <key> --count <n>
      Simulate <n> virtual devices in this process against the API at <url>,
      registering them with <key> (heartbeats, metrics, logs, updates).

  help, --help, -h
      Show this help.

Run \`flotilla-agent <command> --help\` for one command's options.
`;

const RUN_USAGE = `Usage: flotilla-agent run --config <file>

Options:
  --config <file>   agent configuration (JSON: API URL, provisioning key, device type)
  -h, --help        show this help
`;

const SIMULATE_USAGE = `Usage: flotilla-agent simulate --api <url> --provisioning-key <key> --count <n>

Options:
  --api <url>               base URL of the Flotilla API, e.g. http://localhost:8080
  --provisioning-key <key>  fleet provisioning key used to register the devices
  --count <n>               number of virtual devices (a positive integer)
  -h, --help                show this help
`;

export type Command =
  | { kind: 'help'; text: string }
  | { kind: 'run'; config: string }
  | { kind: 'simulate'; api: string; provisioningKey: string; count: number }
  | { kind: 'error'; message: string; usage: string };

const HELP_FLAGS = new Set(['help', '--help', '-h']);

/** Turns the arguments after the program name into a command; never throws. */
export function parseCommand(argv: readonly string[]): Command {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_FLAGS.has(name)) return { kind: 'help', text: USAGE };
  switch (name) {
    case 'run':
      return parseRun(rest);
    case 'simulate':
      return parseSimulate(rest);
    default:
      return { kind: 'error', message: `unknown command: ${name}`, usage: USAGE };
  }
}

function parseRun(args: string[]): Command {
  const parsed = parseOptions(args, { config: { type: 'string' } }, RUN_USAGE);
  if (!parsed.ok) return parsed.command;
  const config = text(parsed.values.config);
  if (config === undefined) return usageError('run: --config <file> is required', RUN_USAGE);
  return { kind: 'run', config };
}

function parseSimulate(args: string[]): Command {
  const parsed = parseOptions(
    args,
    { api: { type: 'string' }, 'provisioning-key': { type: 'string' }, count: { type: 'string' } },
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
  return { kind: 'simulate', api, provisioningKey, count: Number(count) };
}

/** A non-empty string option value, or undefined. */
function text(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

type OptionSpec = Record<string, { type: 'string' }>;
type OptionValues = Record<string, string | boolean | undefined>;
type ParsedOptions = { ok: true; values: OptionValues } | { ok: false; command: Command };

/** Strict option parsing; `--help` wins over everything else. */
function parseOptions(args: string[], spec: OptionSpec, usage: string): ParsedOptions {
  if (args.some((a) => a === '--help' || a === '-h')) return { ok: false, command: { kind: 'help', text: usage } };
  try {
    const { values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false });
    return { ok: true, values };
  } catch (err) {
    return { ok: false, command: usageError(err instanceof Error ? err.message : String(err), usage) };
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

/**
 * The whole CLI as a pure function: parses `argv` (the arguments after the program
 * name), writes to `out` and returns the process exit code.
 */
export function main(argv: readonly string[], out: CliOutput): number {
  const command = parseCommand(argv);
  switch (command.kind) {
    case 'help':
      out.stdout(command.text);
      return EXIT.ok;
    case 'error':
      out.stderr(`flotilla-agent: ${command.message}\n\n${command.usage}`);
      return EXIT.usage;
    case 'run':
      out.stderr(`flotilla-agent: \`run\` is not implemented yet (config: ${command.config}).\n\n${USAGE}`);
      return EXIT.notImplemented;
    case 'simulate':
      out.stderr(
        `flotilla-agent: \`simulate\` is not implemented yet ` +
          `(${command.count} device(s) against ${command.api}).\n\n${USAGE}`,
      );
      return EXIT.notImplemented;
  }
}
