import { describe, expect, it } from 'vitest';
import { VARIABLE_LIMIT_MESSAGES as L, VARIABLE_VALUE_MAX_LENGTH, variableValueProblem } from './limits.js';

describe('variableValueProblem', () => {
  it('accepts values up to 1 MiB and refuses longer ones', () => {
    expect(VARIABLE_VALUE_MAX_LENGTH).toBe(1_048_576);
    expect(variableValueProblem('X', 'a'.repeat(VARIABLE_VALUE_MAX_LENGTH))).toBeUndefined();
    expect(variableValueProblem('X', 'a'.repeat(VARIABLE_VALUE_MAX_LENGTH + 1))).toBe(L.valueTooLong);
    expect(variableValueProblem('X', '')).toBeUndefined();
  });

  it('checks integers against an integer schema property', () => {
    const p = { description: 'd', type: 'integer' } as const;
    for (const v of ['0', '60000', '-5']) expect(variableValueProblem('N', v, p), v).toBeUndefined();
    for (const v of ['', '1.5', 'ten', '1e3', ' 1']) expect(variableValueProblem('N', v, p), v).toBe('N must be a whole number.');
  });

  it('checks enums, before the type', () => {
    const p = { description: 'd', type: 'boolean', enum: ['false', 'true'] } as const;
    expect(variableValueProblem('B', 'true', { ...p, enum: [...p.enum] })).toBeUndefined();
    expect(variableValueProblem('B', 'yes', { ...p, enum: [...p.enum] })).toBe('B must be one of: false, true.');
    expect(L.notInEnum('B', ['0', '1'])).toBe('B must be one of: 0, 1.');
  });

  it('does not check a string property beyond the length', () => {
    expect(variableValueProblem('S', 'anything', { description: 'd', type: 'string' })).toBeUndefined();
  });
});
