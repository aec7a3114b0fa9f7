import { VARIABLE_MESSAGES } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import {
  CUSTOM_CONFIG_MESSAGES,
  customNameProblem,
  customVariables,
  humanMegabytes,
  humanMilliseconds,
  humanValue,
  isOn,
  isToggle,
  listItems,
  schemaRows,
  toggledValue,
  type SchemaProperty,
} from './config-rules';

const schema: Record<string, SchemaProperty> = {
  BALENA_SUPERVISOR_POLL_INTERVAL: { description: 'Poll', type: 'integer', default: '900000', format: 'milliseconds' },
  BALENA_HOST_CONFIG_disable_splash: { description: 'Splash', type: 'boolean', enum: ['0', '1'], default: '1', will_reboot: true },
  BALENA_SUPERVISOR_LOG_LEVEL: { description: 'Level', type: 'string', enum: ['debug', 'info', 'warn'] },
};

describe('schemaRows', () => {
  it('lists every schema variable in name order with the fleet and device values of that name', () => {
    const rows = schemaRows(schema, [{ id: 1, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '60000' }], [
      { id: 9, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '30000' },
      { id: 10, name: 'BALENA_OTHER', value: 'x' },
    ]);
    expect(rows.map((r) => r.name)).toEqual(['BALENA_HOST_CONFIG_disable_splash', 'BALENA_SUPERVISOR_LOG_LEVEL', 'BALENA_SUPERVISOR_POLL_INTERVAL']);
    expect(rows[2]).toMatchObject({ fleet: { id: 1, value: '60000' }, device: { id: 9, value: '30000' } });
    expect(rows[0]).toMatchObject({ fleet: undefined, device: undefined });
  });
});

describe('customVariables', () => {
  it('keeps only the names the schema does not have, sorted', () => {
    const vars = [
      { name: 'RESIN_Z', value: '1' },
      { name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '1' },
      { name: 'BALENA_A', value: '2' },
    ];
    expect(customVariables(schema, vars).map((v) => v.name)).toEqual(['BALENA_A', 'RESIN_Z']);
  });
});

describe('two-value variables', () => {
  it('toggle only with exactly two allowed values', () => {
    expect(isToggle(schema.BALENA_HOST_CONFIG_disable_splash!)).toBe(true);
    expect(isToggle(schema.BALENA_SUPERVISOR_LOG_LEVEL!)).toBe(false);
    expect(isToggle(schema.BALENA_SUPERVISOR_POLL_INTERVAL!)).toBe(false);
  });
  it('flip to the other value; the second value is on', () => {
    const p = schema.BALENA_HOST_CONFIG_disable_splash!;
    expect(toggledValue(p, '0')).toBe('1');
    expect(toggledValue(p, '1')).toBe('0');
    expect(toggledValue(p, undefined)).toBe('0');
    expect(isOn(p, '1')).toBe(true);
    expect(isOn(p, '0')).toBe(false);
  });
});

describe('human-readable formats', () => {
  it('milliseconds', () => {
    expect(humanMilliseconds(900_000)).toBe('15 min');
    expect(humanMilliseconds(90_000)).toBe('1 min 30 s');
    expect(humanMilliseconds(1500)).toBe('1 s 500 ms');
    expect(humanMilliseconds(0)).toBe('0 ms');
    expect(humanMilliseconds(86_400_000 + 3_600_000)).toBe('1 d 1 h');
  });
  it('megabytes', () => {
    expect(humanMegabytes(16)).toBe('16 MB');
    expect(humanMegabytes(2048)).toBe('2 GB');
    expect(humanMegabytes(1536)).toBe('1.5 GB');
  });
  it('lists, quoted or not', () => {
    expect(listItems('"i2c_arm=on","spi=on","audio=on"')).toEqual(['i2c_arm=on', 'spi=on', 'audio=on']);
    expect(listItems('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(listItems('"a,b",c')).toEqual(['a,b', 'c']);
    expect(listItems('')).toEqual([]);
  });
  it('by the property format, and nothing for a value not of that shape', () => {
    expect(humanValue({ format: 'milliseconds' }, '900000')).toBe('15 min');
    expect(humanValue({ format: 'milliseconds' }, 'soon')).toBeUndefined();
    expect(humanValue({ format: 'megabytes' }, '64')).toBe('64 MB');
    expect(humanValue({ format: 'list' }, '"x","y"')).toBe('x, y');
    expect(humanValue({}, '900000')).toBeUndefined();
  });
});

describe('customNameProblem', () => {
  it("applies the model's config name rules", () => {
    expect(customNameProblem('', [], schema)).toBe(VARIABLE_MESSAGES.mandatoryName);
    expect(customNameProblem('1BAD', [], schema)).toBe(VARIABLE_MESSAGES.invalidConfigName);
    expect(customNameProblem('MY_VAR', [], schema)).toBe(VARIABLE_MESSAGES.configOutsideNamespace);
    expect(customNameProblem('BALENA_API_KEY', [], schema)).toBe(VARIABLE_MESSAGES.reservedName);
  });
  it('refuses a duplicate custom name and a name of the schema table', () => {
    expect(customNameProblem('BALENA_CUSTOM', ['BALENA_CUSTOM'], schema)).toBe(CUSTOM_CONFIG_MESSAGES.duplicate);
    expect(customNameProblem('BALENA_SUPERVISOR_POLL_INTERVAL', [], schema)).toBe(CUSTOM_CONFIG_MESSAGES.inSchema);
    expect(customNameProblem('BALENA_CUSTOM', ['BALENA_OTHER'], schema)).toBeUndefined();
    expect(customNameProblem('RESIN_HOST_CONFIG_foo:bar', [], schema)).toBeUndefined();
  });
});
