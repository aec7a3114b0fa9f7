import type { ResourceDef } from '../types.js';

export const cpu_architecture = {
  name: 'cpu_architecture',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'slug', type: 'Short Text', required: true, writable: 'never' },
  ],
  reverse: [{ name: 'is_supported_by__device_type', resource: 'device_type', via: 'is_of__cpu_architecture' }],
  alternateKeys: [['slug']],
  unique: [['slug']],
} as const satisfies ResourceDef;

export const device_type = {
  name: 'device_type',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'slug', type: 'Short Text', required: true, writable: 'never' },
    { name: 'name', type: 'Short Text', required: true, writable: 'never' },
    { name: 'is_of__cpu_architecture', type: 'ForeignKey', references: 'cpu_architecture', required: true, writable: 'never' },
    { name: 'logo', type: 'Text', writable: 'never' },
    { name: 'contract', type: 'JSON', writable: 'never' },
    { name: 'is_private', type: 'Boolean', required: true, default: 'false', writable: 'never' },
  ],
  reverse: [
    { name: 'device_type_alias', resource: 'device_type_alias', via: 'device_type' },
    { name: 'is_default_for__application', resource: 'application', via: 'is_for__device_type' },
  ],
  alternateKeys: [['slug']],
  unique: [['slug']],
} as const satisfies ResourceDef;

export const device_type_alias = {
  name: 'device_type_alias',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'device_type', type: 'ForeignKey', references: 'device_type', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'is_referenced_by__alias', type: 'Short Text', required: true, writable: 'never' },
  ],
  unique: [['is_referenced_by__alias']],
  indexes: [['device_type']],
} as const satisfies ResourceDef;
