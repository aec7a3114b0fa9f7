export * from './billing.resource.js';
export * from './credits.resource.js';
export * from './catalogue.js';
export * from './rules.js';
export * from './limits.js';
export * from './payments.js';
export * from './frozen-devices.js';
export * from './admin-credits.js';
