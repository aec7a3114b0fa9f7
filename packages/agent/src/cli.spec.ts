import { describe, expect, it, vi } from 'vitest';
import { EXIT, USAGE, main, parseCommand } from './cli.js';

function runCli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Runs the CLI with a recording runner: which long-lived command would have started. */
async function runWithRunner(...argv: string[]) {
  const started: unknown[] = [];
  const code = await main(argv, { stdout: () => {}, stderr: () => {} }, async (command) => {
    started.push(command);
    return 7;
  });
  return { code, started };
}

describe('flotilla-agent usage', () => {
  it.each([[], ['--help'], ['-h'], ['help']])('prints the usage and exits 0 for %j', (...argv: string[]) => {
    const { code, stdout, stderr } = runCli(...argv);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toBe(USAGE);
    expect(stderr).toBe('');
  });

  it('describes both commands and their options', () => {
    expect(USAGE).toContain('run --config <file>');
    expect(USAGE).toContain('simulate --api <url> --provisioning-key <key> --count <n>');
  });

  it('prints one command’s options for `<command> --help`', () => {
    const run = runCli('run', '--help');
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain('Usage: flotilla-agent run --config <file>');

    const simulate = runCli('simulate', '--count', '3', '-h');
    expect(simulate.code).toBe(EXIT.ok);
    expect(simulate.stdout).toContain('--provisioning-key <key>');
  });

  it('rejects an unknown command with exit code 1', () => {
    const { code, stdout, stderr } = runCli('frobnicate');
    expect(code).toBe(EXIT.usage);
    expect(stdout).toBe('');
    expect(stderr).toContain('unknown command: frobnicate');
    expect(stderr).toContain(USAGE);
  });
});

describe('flotilla-agent run', () => {
  it('parses --config', () => {
    expect(parseCommand(['run', '--config', '/etc/flotilla/agent.json'])).toEqual({
      kind: 'run',
      config: '/etc/flotilla/agent.json',
      engine: 'none',
      allowPower: false,
    });
    expect(parseCommand(['run', '--config=agent.json'])).toEqual({ kind: 'run', config: 'agent.json', engine: 'none', allowPower: false });
  });

  it('reads FLOTILLA_AGENT_ENGINE from the process environment by default (the /download/agent bundle calls main without it)', async () => {
    vi.stubEnv('FLOTILLA_AGENT_ENGINE', 'podman');
    try {
      const started: unknown[] = [];
      await main(['run', '--config', 'a.json'], { stdout: () => {}, stderr: () => {} }, async (c) => (started.push(c), 0));
      expect(started).toEqual([{ kind: 'run', config: 'a.json', engine: 'podman', allowPower: false }]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('takes the engine from --engine, else FLOTILLA_AGENT_ENGINE, else none', () => {
    expect(parseCommand(['run', '--config', 'a.json', '--engine', 'podman', '--allow-power'])).toEqual({ kind: 'run', config: 'a.json', engine: 'podman', allowPower: true });
    expect(parseCommand(['run', '--config', 'a.json'], { FLOTILLA_AGENT_ENGINE: 'docker' })).toMatchObject({ engine: 'docker', allowPower: false });
    expect(parseCommand(['run', '--config', 'a.json', '--engine=none'], { FLOTILLA_AGENT_ENGINE: 'docker' })).toMatchObject({ engine: 'none' });
    // The host shell is off unless asked for.
    expect(parseCommand(['run', '--config', 'a.json'])).not.toHaveProperty('allowHostShell');
    expect(parseCommand(['run', '--config', 'a.json', '--allow-host-shell'])).toMatchObject({ kind: 'run', allowHostShell: true });
    expect(parseCommand(['run', '--config', 'a.json', '--config-hook', '/usr/local/bin/hook'])).toMatchObject({ kind: 'run', configHook: '/usr/local/bin/hook' });
    expect(parseCommand(['run', '--config', 'a.json'], { FLOTILLA_CONFIG_HOOK: '/etc/hook' })).toMatchObject({ kind: 'run', configHook: '/etc/hook' });
    expect(parseCommand(['run', '--config', 'a.json', '--config-hook=/a'], { FLOTILLA_CONFIG_HOOK: '/etc/hook' })).toMatchObject({ kind: 'run', configHook: '/a' });
    expect(parseCommand(['run', '--config', 'a.json'])).not.toHaveProperty('configHook');
    expect(parseCommand(['run', '--config', 'a.json', '--os-update-hook', '/usr/local/sbin/os-update'])).toMatchObject({ kind: 'run', osUpdateHook: '/usr/local/sbin/os-update' });
    expect(parseCommand(['run', '--config', 'a.json'], { FLOTILLA_OS_UPDATE_HOOK: '/etc/os-hook' })).toMatchObject({ kind: 'run', osUpdateHook: '/etc/os-hook' });
    expect(parseCommand(['run', '--config', 'a.json', '--os-update-hook=/b'], { FLOTILLA_OS_UPDATE_HOOK: '/etc/os-hook' })).toMatchObject({ kind: 'run', osUpdateHook: '/b' });
    expect(parseCommand(['run', '--config', 'a.json'])).not.toHaveProperty('osUpdateHook');
    expect(parseCommand(['run', '--config', 'a.json', '--engine', 'lxc'])).toMatchObject({ kind: 'error', message: 'run: --engine must be docker, podman or none, got "lxc"' });
    expect(parseCommand(['run', '--config', 'a.json'], { FLOTILLA_AGENT_ENGINE: 'rkt' })).toMatchObject({ kind: 'error', message: 'run: FLOTILLA_AGENT_ENGINE must be docker, podman or none, got "rkt"' });
  });

  it('hands the parsed command to the runner and returns its exit code', async () => {
    expect(await runWithRunner('run', '--config', 'agent.json')).toEqual({ code: 7, started: [{ kind: 'run', config: 'agent.json', engine: 'none', allowPower: false }] });
  });

  it('says in its help what the engine mode does and that power actions need --allow-power', () => {
    const { stdout } = runCli('run', '--help');
    expect(stdout).toContain('--engine <kind>');
    expect(stdout).toContain('DOCKER_HOST');
    expect(stdout).toContain('--allow-power');
    expect(stdout).toContain('runs no containers');
    expect(stdout).toContain('/tmp/flotilla/updates.lock');
  });

  it('requires --config and rejects unknown options', () => {
    expect(runCli('run').code).toBe(EXIT.usage);
    expect(runCli('run').stderr).toContain('--config <file> is required');
    expect(runCli('run', '--config').code).toBe(EXIT.usage);
    const unknown = runCli('run', '--config', 'a.json', '--verbose');
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('--verbose');
  });
});

describe('flotilla-agent simulate', () => {
  const valid = ['simulate', '--api', 'http://localhost:8080', '--provisioning-key', 'abc123', '--count', '25'];

  it('parses --api, --provisioning-key and --count', () => {
    expect(parseCommand(valid)).toEqual({
      kind: 'simulate',
      api: 'http://localhost:8080',
      provisioningKey: 'abc123',
      count: 25,
    });
  });

  it('parses the optional simulation settings', () => {
    expect(parseCommand([...valid, '--fleet', '12', '--locations', '--seed', '42', '--poll-interval', '5', '--device-type', 'raspberrypi3', '--quiet'])).toEqual({
      kind: 'simulate',
      api: 'http://localhost:8080',
      provisioningKey: 'abc123',
      count: 25,
      fleetId: 12,
      locations: true,
      seed: 42,
      pollIntervalS: 5,
      deviceType: 'raspberrypi3',
      quiet: true,
    });
  });

  it('parses the bench settings: ramp, no link, stats file', () => {
    expect(parseCommand([...valid, '--ramp', '90', '--no-link', '--stats-file', '/tmp/sim.json'])).toMatchObject({
      kind: 'simulate',
      count: 25,
      rampS: 90,
      noLink: true,
      statsFile: '/tmp/sim.json',
    });
  });

  it('parses the log settings: --log-rate, --no-logs', () => {
    expect(parseCommand([...valid, '--log-rate', '120', '--no-logs'])).toMatchObject({ kind: 'simulate', logRate: 120, noLogs: true });
    expect(parseCommand([...valid, '--fail-agent-update'])).toMatchObject({ kind: 'simulate', failAgentUpdate: true });
    expect(parseCommand([...valid, '--log-rate=0'])).toMatchObject({ kind: 'simulate', logRate: 0 });
  });

  it('parses --source-addresses into a list of addresses', () => {
    expect(parseCommand([...valid, '--source-addresses', '127.0.0.2, 127.0.0.3,::1'])).toMatchObject({ kind: 'simulate', sourceAddresses: ['127.0.0.2', '127.0.0.3', '::1'] });
  });

  it.each([
    ['--log-rate', 'lots', '--log-rate must be a number of lines per minute'],
    ['--log-rate', '9999999', '--log-rate must be a number of lines per minute'],
    ['--fleet', 'x', '--fleet must be a fleet id'],
    ['--ramp', 'soon', '--ramp must be a number of seconds'],
    ['--seed', '-1', '--seed must be a non-negative integer'],
    ['--poll-interval', '0', '--poll-interval must be at least 1'],
    ['--source-addresses', '127.0.0.2,localhost', '--source-addresses takes IP addresses separated by commas, got "localhost"'],
    ['--source-addresses', '127.0.0.2,,127.0.0.3', '--source-addresses takes IP addresses separated by commas, got ""'],
  ])('rejects %s %s', (flag, value, message) => {
    const { code, stderr } = runCli(...valid, `${flag}=${value}`);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain(message);
  });

  it('hands a valid simulation to the runner', async () => {
    const { code, started } = await runWithRunner(...valid);
    expect(code).toBe(7);
    expect(started).toEqual([{ kind: 'simulate', api: 'http://localhost:8080', provisioningKey: 'abc123', count: 25 }]);
  });

  it('fails with exit code 2 when no runner is wired', () => {
    const { code, stderr } = runCli(...valid);
    expect(code).toBe(EXIT.failed);
    expect(stderr).toContain('no runner for `simulate`');
  });

  it('names every missing option', () => {
    const { code, stderr } = runCli('simulate', '--count', '2');
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('missing --api <url>, --provisioning-key <key>');
    expect(stderr).not.toContain('missing --count');
  });

  it.each([['0'], ['-3'], ['2.5'], ['many']])('rejects --count %s', (count) => {
    const { code, stderr } = runCli('simulate', '--api', 'http://x', '--provisioning-key', 'k', `--count=${count}`);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('--count must be a positive integer');
  });

  it('rejects an --api that is not an http(s) URL', () => {
    const { code, stderr } = runCli('simulate', '--api', 'ftp://x', '--provisioning-key', 'k', '--count', '1');
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('--api must be an http(s) URL');
  });

  it('rejects positional arguments', () => {
    expect(runCli(...valid, 'extra').code).toBe(EXIT.usage);
  });

  it('accepts a key that starts with "-" given as --provisioning-key=<key> (issue 22)', () => {
    expect(parseCommand(['simulate', '--api=http://localhost:8080', '--provisioning-key=-abcDEF123', '--count=2'])).toEqual({
      kind: 'simulate',
      api: 'http://localhost:8080',
      provisioningKey: '-abcDEF123',
      count: 2,
    });
  });

  it('says how to pass a key that starts with "-" when it is given as a separate argument', () => {
    const { code, stderr } = runCli('simulate', '--api', 'http://x', '--provisioning-key', '-abcDEF123', '--count', '1');
    expect(code).toBe(EXIT.usage);
    expect(stderr).toContain('--provisioning-key: a value that starts with "-" must be given as --provisioning-key=<value>');
  });

  it('says in its help that every option takes --option=<value>', () => {
    const { stdout } = runCli('simulate', '--help');
    expect(stdout).toContain('--option=<value>');
    expect(stdout).toContain('--provisioning-key=<key>');
  });
});
