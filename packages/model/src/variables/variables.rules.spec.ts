import { describe, expect, it } from 'vitest';
import { isWhitelistedConfigName, VARIABLE_MESSAGES as M, variableNameProblem } from './variables.rules.js';

describe('variableNameProblem: environment variables', () => {
  const problem = (name: string | null | undefined) => variableNameProblem('environment', name);

  it('accepts letters, digits and underscores starting with a letter', () => {
    for (const name of ['A', 'my_var', 'Var2', 'DATABASE_URL', 'x_1_y']) expect(problem(name), name).toBeUndefined();
  });

  it('rejects a name not starting with a letter, or with other characters', () => {
    for (const name of ['1VAR', '_VAR', 'MY-VAR', 'MY VAR', 'A:B', 'é', 'VAR$']) expect(problem(name), name).toBe(M.invalidEnvironmentName);
  });

  it('requires a name', () => {
    for (const name of ['', '   ', null, undefined]) expect(problem(name)).toBe(M.mandatoryName);
  });

  it('rejects reserved names', () => {
    for (const name of ['RESIN', 'BALENA', 'RESIN_API_KEY', 'BALENA_API_KEY', 'RESIN_SUPERVISOR_ADDRESS', 'BALENA_DEVICE_UUID']) {
      expect(problem(name), name).toBe(M.reservedName);
    }
  });

  it('sends whitelisted configuration names to the Configuration page', () => {
    for (const name of ['BALENA_SUPERVISOR_POLL_INTERVAL', 'RESIN_SUPERVISOR_LOCAL_MODE', 'BALENA_HOST_CONFIG_gpu_mem']) {
      expect(problem(name), name).toBe(M.configOnConfigurationPage);
    }
  });

  it('rejects other names in the reserved namespaces', () => {
    for (const name of ['RESIN_FOO', 'BALENA_MY_SETTING', 'BALENA_HOST_CONFIG_']) expect(problem(name), name).toBe(M.reservedNamespace);
  });

  it('names the namespaces in the namespace message', () => {
    expect(M.reservedNamespace).toBe(
      'Variables beginning with RESIN_, BALENA_ configure OS features. They must be named as per the documentation and managed on the Configuration page.',
    );
  });

  it('is case-sensitive about namespaces', () => {
    expect(problem('balena_thing')).toBeUndefined();
  });
});

describe('variableNameProblem: configuration variables', () => {
  const problem = (name: string | null | undefined) => variableNameProblem('config', name);

  it('accepts whitelisted names and names in a reserved namespace', () => {
    for (const name of ['BALENA_SUPERVISOR_POLL_INTERVAL', 'RESIN_SUPERVISOR_LOCAL_MODE', 'BALENA_HOST_CONFIG_dtoverlay', 'RESIN_OVERRIDE_LOCK', 'BALENA_CUSTOM:ONE']) {
      expect(problem(name), name).toBeUndefined();
    }
  });

  it('allows a colon but nothing else beyond letters, digits and underscores', () => {
    expect(problem('BALENA_A:B')).toBeUndefined();
    for (const name of ['BALENA-X', '1BALENA', ':BALENA', 'BALENA X']) expect(problem(name), name).toBe(M.invalidConfigName);
  });

  it('rejects names outside the whitelist and the reserved namespaces', () => {
    for (const name of ['MY_SETTING', 'POLL_INTERVAL', 'balena_lowercase']) expect(problem(name), name).toBe(M.configOutsideNamespace);
  });

  it('rejects reserved names and empty names', () => {
    expect(problem('BALENA_API_KEY')).toBe(M.reservedName);
    expect(problem('RESIN')).toBe(M.reservedName);
    expect(problem('')).toBe(M.mandatoryName);
  });
});

describe('isWhitelistedConfigName', () => {
  it('matches exact names and members of whitelisted families, not the bare family prefix', () => {
    expect(isWhitelistedConfigName('RESIN_SUPERVISOR_DELTA')).toBe(true);
    expect(isWhitelistedConfigName('BALENA_HOST_EXTLINUX_isolcpus')).toBe(true);
    expect(isWhitelistedConfigName('BALENA_HOST_CONFIG_')).toBe(false);
    expect(isWhitelistedConfigName('BALENA_SUPERVISOR_DELTAX')).toBe(false);
  });
});
