import { describe, expect, it } from 'vitest';
import { applicationNameClash, fleetNameProblem } from './validation.js';

describe('application name rules', () => {
  it('rejects a name shorter than 4 characters and accepts 4', () => {
    expect(fleetNameProblem('abc')).toBe('The name must be at least 4 characters long');
    expect(fleetNameProblem('abcd')).toBeUndefined();
  });

  it('rejects a name longer than 100 characters and accepts 100', () => {
    expect(fleetNameProblem('a'.repeat(101))).toBe('The name must be at most 100 characters long');
    expect(fleetNameProblem('a'.repeat(100))).toBeUndefined();
  });

  it('allows letters, digits, hyphens and underscores only', () => {
    expect(fleetNameProblem('My_fleet-2')).toBeUndefined();
    for (const bad of ['my fleet', 'fleet.one', 'flëet', 'fleet/1']) {
      expect(fleetNameProblem(bad)).toBe('The name may only contain letters, digits, hyphens and underscores');
    }
  });

  it('reports a case-insensitive clash naming the class of the existing application', () => {
    const existing = [
      { app_name: 'Edge-Gateway', is_of__class: 'block' },
      { app_name: 'kiosk', is_of__class: 'app' },
      { app_name: 'store', is_of__class: 'fleet' },
    ];
    expect(applicationNameClash('edge-gateway', existing)).toBe('A block with this name already exists');
    expect(applicationNameClash('KIOSK', existing)).toBe('An app with this name already exists');
    expect(applicationNameClash('Store', existing)).toBe('A fleet with this name already exists');
    expect(applicationNameClash('stores', existing)).toBeUndefined();
  });
});
