import { variableNameProblem, variableValueProblem, type ConfigVarProperty } from '@flotilla/model';

/**
 * The configuration pages' pure rules (spec 2 §2 fleet and device config pages, §3 config
 * variable schema property, §4 variable edit staging): which rows the schema table and the
 * custom table show, how a value reads, which variables toggle. Unit-tested beside this file.
 */

/** A schema property as the device type's contract gives it (`format` is optional). */
export type SchemaProperty = ConfigVarProperty;

/** A saved configuration variable of the fleet or of the device. */
export interface SavedConfigVariable {
  id: number;
  name: string;
  value: string;
}

/** One row of the schema table: the schema's property and the values set at each level. */
export interface SchemaRow {
  name: string;
  property: SchemaProperty;
  /** The fleet's variable of that name (on the device page: the value the device inherits). */
  fleet?: SavedConfigVariable;
  /** The device's override (device page only). */
  device?: SavedConfigVariable;
}

/** The schema's variables in name order, each with what the fleet (and the device) set. */
export function schemaRows(
  schema: Record<string, SchemaProperty>,
  fleet: readonly SavedConfigVariable[],
  device?: readonly SavedConfigVariable[],
): SchemaRow[] {
  return Object.keys(schema)
    .sort()
    .map((name) => ({
      name,
      property: schema[name]!,
      fleet: fleet.find((v) => v.name === name),
      device: device?.find((v) => v.name === name),
    }));
}

/** The variables set on the fleet or device that the schema does not name (the custom table). */
export function customVariables<V extends { name: string }>(schema: Record<string, SchemaProperty>, variables: readonly V[]): V[] {
  return variables.filter((v) => !Object.hasOwn(schema, v.name)).sort((a, b) => a.name.localeCompare(b.name));
}

/** Spec 2 §4: a variable with exactly two allowed values is toggled directly. */
export function isToggle(property: SchemaProperty): boolean {
  return property.enum?.length === 2;
}

/** The other of a two-value variable's values (the first one when `value` is neither). */
export function toggledValue(property: SchemaProperty, value: string | undefined): string {
  const [a, b] = property.enum ?? [];
  return value === a ? (b ?? '') : (a ?? '');
}

/** Whether a two-value variable's value is its "on" value (the second of the pair, as in ['0','1'] and ['false','true']). */
export function isOn(property: SchemaProperty, value: string | undefined): boolean {
  return property.enum?.length === 2 && value === property.enum[1];
}

const UNITS: [number, string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1000, 's'],
  [1, 'ms'],
];

/** 900000 → "15 min", 90000 → "1 min 30 s", 1500 → "1 s 500 ms". */
export function humanMilliseconds(ms: number): string {
  if (ms === 0) return '0 ms';
  const parts: string[] = [];
  let rest = ms;
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n} ${unit}`);
      rest -= n * size;
    }
  }
  return parts.join(' ');
}

/** 16 → "16 MB", 2048 → "2 GB", 1536 → "1.5 GB". */
export function humanMegabytes(mb: number): string {
  if (mb >= 1024) return `${Number((mb / 1024).toFixed(2))} GB`;
  return `${mb} MB`;
}

/**
 * The items of a list value: comma-separated, each optionally double-quoted (the shape
 * `"i2c_arm=on","spi=on"` of balena's DT parameters).
 */
export function listItems(value: string): string[] {
  const items: string[] = [];
  const re = /\s*(?:"([^"]*)"|([^,]*))\s*(?:,|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value)) !== null && m.index < value.length) {
    const item = (m[1] ?? m[2] ?? '').trim();
    if (item !== '') items.push(item);
    if (re.lastIndex === m.index) re.lastIndex++;
  }
  return items;
}

/**
 * A value as a person reads it, by the property's `format`; undefined when the format adds
 * nothing (no format, or a value that is not of its shape).
 */
export function humanValue(property: Pick<SchemaProperty, 'format'>, value: string): string | undefined {
  const integer = /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
  switch (property.format) {
    case 'milliseconds':
      return integer === undefined ? undefined : humanMilliseconds(integer);
    case 'megabytes':
      return integer === undefined ? undefined : humanMegabytes(integer);
    case 'list': {
      const items = listItems(value);
      return items.length > 0 ? items.join(', ') : undefined;
    }
    default:
      return undefined;
  }
}

export const CUSTOM_CONFIG_MESSAGES = {
  duplicate: 'A configuration variable with this name already exists.',
  inSchema: 'This configuration variable is managed in the table above.',
} as const;

/**
 * Why `name` cannot name a new custom configuration variable: the model's name rules
 * (the server enforces the same), then a duplicate of an existing custom variable, or a name
 * of the schema table (set there instead).
 */
export function customNameProblem(name: string, existing: readonly string[], schema: Record<string, SchemaProperty>): string | undefined {
  const trimmed = name.trim();
  const problem = variableNameProblem('config', trimmed);
  if (problem) return problem;
  if (Object.hasOwn(schema, trimmed)) return CUSTOM_CONFIG_MESSAGES.inSchema;
  if (existing.includes(trimmed)) return CUSTOM_CONFIG_MESSAGES.duplicate;
  return undefined;
}

/**
 * Why `value` cannot be the value of configuration variable `name` (the model's value rules,
 * which the server enforces on every write), or undefined.
 */
export function configValueProblem(name: string, value: string, property?: SchemaProperty): string | undefined {
  return variableValueProblem(name, value, property);
}
