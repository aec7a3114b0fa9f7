// The model's public entry: `@flotilla/model`. The mechanism (types, the assembled model,
// permission parsing) sits at the top; each concept's folder holds its resource definitions
// (`*.resource.ts`) and its rules side by side (see packages/model/README.md).
export * from './types.js';
export * from './model.js';
export * from './rows.js';
export * from './permissions.js';
export * from './common/constants.js';
export * from './common/validation.js';
export * from './roles/roles.js';
export * from './identity/identity.resource.js';
export * from './identity/account-recovery.js';
export * from './identity/account-deletion.js';
export * from './identity/cli-callback.js';
export * from './identity/user-preferences.js';
export * from './organization/organization.resource.js';
export * from './access/access.resource.js';
export * from './access/support-access.js';
export * from './fleet/application.resource.js';
export * from './fleet/deploy.js';
export * from './fleet/caller-navigations.js';
export * from './device/device.resource.js';
export * from './device/device-state.resource.js';
export * from './device/device.rules.js';
export * from './device/overall-status.js';
export * from './device/location.js';
export * from './device-type/device-types.js';
export * from './device-type/os-lines.js';
export * from './release/release.resource.js';
export * from './release/release.rules.js';
export * from './variables/variables.resource.js';
export * from './variables/variables.rules.js';
export * from './invitation/invitation.resource.js';
export * from './mail/mail.resource.js';
export * from './oauth/oauth.resource.js';
export * from './ssh-keys/user-keys.resource.js';
export * from './ssh-keys/ssh-keys.js';
export * from './tags/tags.js';
