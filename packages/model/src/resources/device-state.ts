import type { ResourceDef } from '../types.js';

/**
 * What a device runs (dialect §3, §4.3): one image_install per image on the device, one
 * service_install per service of its fleet it knows. Written only by the server from the
 * device's state reports (the device API); read through the data API.
 */

export const image_install = {
  name: 'image_install',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'device', type: 'ForeignKey', references: 'device', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'installs__image', type: 'ForeignKey', references: 'image', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'is_provided_by__release', type: 'ForeignKey', references: 'release', writable: 'never', onDelete: 'cascade' },
    { name: 'install_date', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'download_progress', type: 'Integer', writable: 'never' },
    { name: 'status', type: 'Short Text', required: true, writable: 'never', maxLength: 255 },
  ],
  unique: [['device', 'installs__image']],
  indexes: [['installs__image'], ['is_provided_by__release']],
} as const satisfies ResourceDef;

export const service_install = {
  name: 'service_install',
  fields: [
    { name: 'id', type: 'Serial' },
    { name: 'created_at', type: 'Date Time', required: true, default: 'now()', writable: 'never' },
    { name: 'device', type: 'ForeignKey', references: 'device', required: true, writable: 'never', onDelete: 'cascade' },
    { name: 'installs__service', type: 'ForeignKey', references: 'service', required: true, writable: 'never', onDelete: 'cascade' },
  ],
  unique: [['device', 'installs__service']],
  indexes: [['installs__service']],
} as const satisfies ResourceDef;
