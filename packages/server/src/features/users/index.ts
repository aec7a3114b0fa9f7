// Users have no routes of their own (they are /v7 resources); what other features and the
// start-up share: creating an account (sign-up) and the configured platform administrator.
export { createUser, EMAIL_TAKEN } from './user.service.js';
export { ensurePlatformAdmin } from './platform-admin.js';
