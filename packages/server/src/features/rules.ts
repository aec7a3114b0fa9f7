import { registerFleetAccessRules } from './access/access.hooks.js';
import { registerInvitationRules } from './invitations/invitation.hooks.js';
import { registerApplicationRules } from './applications/application.hooks.js';
import { registerOrganizationRules } from './organizations/organization.hooks.js';
import { registerTeamRules } from './teams/team.hooks.js';
import { registerReleaseRules } from './releases/release.hooks.js';
import { registerDeviceRules } from './devices/device.hooks.js';
import { registerApiKeyRules } from './api-keys/api-key.hooks.js';
import { registerStateChangeRules } from './device-api/state-change.hooks.js';
import { registerApiKeyRevocationRules } from './device-api/api-key-revocation.hooks.js';
import { registerVariableRules } from './variables/variable.hooks.js';
import { registerTagRules } from './tags/tag.hooks.js';
import { registerVerificationResendRules } from './account-recovery/verification-resend.hooks.js';
import { registerSshKeyRules } from './ssh-keys/ssh-key.hooks.js';
import { registerUserPreferenceRules } from './user-preferences/user-preferences.hooks.js';

/**
 * Registers every business rule (data API hooks). Each rule lives in its feature folder,
 * one file per rule; this is the single place that wires them in.
 */
let registered = false;
export function registerBusinessRules(): void {
  if (registered) return;
  registered = true;
  registerOrganizationRules();
  registerApplicationRules();
  registerFleetAccessRules();
  registerTeamRules();
  registerInvitationRules();
  registerReleaseRules();
  registerDeviceRules();
  registerApiKeyRules();
  registerStateChangeRules();
  registerApiKeyRevocationRules();
  registerVariableRules();
  registerTagRules();
  registerVerificationResendRules();
  registerSshKeyRules();
  registerUserPreferenceRules();
}
