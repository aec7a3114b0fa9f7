import type { Model, ResourceDef } from './types.js';
import { actor, api_key, user } from './identity/identity.resource.js';
import { organization, organization_membership, organization_membership_role, organization_membership_tag } from './organization/organization.resource.js';
import { cpu_architecture, device_type, device_type_alias } from './device-type/device-type.resource.js';
import { application, application_type } from './fleet/application.resource.js';
import { email_outbox } from './mail/mail.resource.js';
import { invitee, invitee__is_invited_to__application, invitee__is_invited_to__organization } from './invitation/invitation.resource.js';
import { application_tag, image, image__is_part_of__release, release, release_asset, release_tag, service } from './release/release.resource.js';
import { device, device_tag } from './device/device.resource.js';
import { image_install, service_install } from './device/device-state.resource.js';
import {
  application_config_variable,
  application_environment_variable,
  build_environment_variable,
  device_config_variable,
  device_environment_variable,
  device_service_environment_variable,
  service_environment_variable,
} from './variables/variables.resource.js';
import { variable_change } from './variables/variable-change.resource.js';
import { application_membership_role, team, team_application_access, team_membership, user_application_membership } from './access/access.resource.js';
import { social_service_account, user__has__public_key } from './ssh-keys/user-keys.resource.js';
import { oauth_application, oauth_application_authorization } from './oauth/oauth.resource.js';
import { terminal_session } from './terminal/terminal-session.resource.js';
import { feature, plan, plan_addon, plan_feature, subscription } from './billing/billing.resource.js';
import { credit_bundle, organization_credit_notification } from './billing/credits.resource.js';
import { audit_event } from './audit/audit-event.resource.js';
import { identity_provider, identity_provider_membership, saml_account } from './identity-provider/identity-provider.resource.js';

const all = [
  actor,
  user,
  api_key,
  organization,
  organization_membership_role,
  organization_membership,
  organization_membership_tag,
  cpu_architecture,
  device_type,
  device_type_alias,
  application_type,
  application,
  application_membership_role,
  user_application_membership,
  team,
  team_membership,
  team_application_access,
  email_outbox,
  invitee,
  invitee__is_invited_to__organization,
  invitee__is_invited_to__application,
  release,
  service,
  image,
  image__is_part_of__release,
  release_tag,
  release_asset,
  application_tag,
  device,
  device_tag,
  image_install,
  service_install,
  application_environment_variable,
  application_config_variable,
  build_environment_variable,
  service_environment_variable,
  device_environment_variable,
  device_config_variable,
  device_service_environment_variable,
  variable_change,
  user__has__public_key,
  social_service_account,
  oauth_application,
  oauth_application_authorization,
  terminal_session,
  feature,
  plan,
  plan_feature,
  plan_addon,
  subscription,
  credit_bundle,
  organization_credit_notification,
  audit_event,
  identity_provider,
  identity_provider_membership,
  saml_account,
] as const satisfies readonly ResourceDef[];

export const model: Model = Object.fromEntries(all.map((r) => [r.name, r]));

/** Every resource's definition with its literal type, by name (./rows.ts derives row types from it). */
export type ModelDefs = { [D in (typeof all)[number] as D['name']]: D };
