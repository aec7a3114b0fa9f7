import type { ConfigVarProperty } from './variables.rules.js';

/**
 * Limits of a variable's value (issue 16 "Bad input"). Pure: the server enforces them on every
 * write of the six variable resources, the dashboard's dialogs run the same function.
 */

/** The longest value, in characters (1 MiB). */
export const VARIABLE_VALUE_MAX_LENGTH = 1024 * 1024;

export const VARIABLE_LIMIT_MESSAGES = {
  valueTooLong: 'A variable value cannot be longer than 1 MB (1048576 characters).',
  notInteger: (name: string) => `${name} must be a whole number.`,
  notInEnum: (name: string, allowed: readonly string[]) => `${name} must be one of: ${allowed.join(', ')}.`,
} as const;

const INTEGER = /^-?\d+$/;

/**
 * Why `value` cannot be the value of variable `name`, or undefined when it can: too long; for
 * a configuration variable with a schema property (its device type's), not a whole number
 * where the schema says integer, or not one of the schema's allowed values.
 */
export function variableValueProblem(name: string, value: string, property?: ConfigVarProperty): string | undefined {
  if (value.length > VARIABLE_VALUE_MAX_LENGTH) return VARIABLE_LIMIT_MESSAGES.valueTooLong;
  if (!property) return undefined;
  if (property.enum && property.enum.length > 0 && !property.enum.includes(value)) return VARIABLE_LIMIT_MESSAGES.notInEnum(name, property.enum);
  if (property.type === 'integer' && !INTEGER.test(value)) return VARIABLE_LIMIT_MESSAGES.notInteger(name);
  return undefined;
}
