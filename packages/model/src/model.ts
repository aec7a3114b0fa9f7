import type { Model, ResourceDef } from './types.js';
import { actor, api_key, user } from './resources/identity.js';
import { organization, organization_membership, organization_membership_role, organization_membership_tag } from './resources/organization.js';
import { cpu_architecture, device_type, device_type_alias } from './resources/device-type.js';
import { application, application_type } from './resources/application.js';
import { email_outbox } from './resources/mail.js';
import { invitee, invitee__is_invited_to__application, invitee__is_invited_to__organization } from './resources/invitation.js';
import { application_tag, image, image__is_part_of__release, release, release_asset, release_tag, service } from './resources/release.js';
import { device, device_tag } from './resources/device.js';
import { image_install, service_install } from './resources/device-state.js';
import {
  application_config_variable,
  application_environment_variable,
  build_environment_variable,
  device_config_variable,
  device_environment_variable,
  device_service_environment_variable,
  service_environment_variable,
} from './resources/variables.js';
import { application_membership_role, team, team_application_access, team_membership, user_application_membership } from './resources/access.js';
import { social_service_account, user__has__public_key } from './resources/user-keys.js';
import { oauth_application, oauth_application_authorization } from './resources/oauth.js';

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
  user__has__public_key,
  social_service_account,
  oauth_application,
  oauth_application_authorization,
] as const satisfies readonly ResourceDef[];

export const model: Model = Object.fromEntries(all.map((r) => [r.name, r]));

/** Every resource's definition with its literal type, by name (./rows.ts derives row types from it). */
export type ModelDefs = { [D in (typeof all)[number] as D['name']]: D };
