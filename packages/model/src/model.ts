import type { Model, ResourceDef } from './types.js';
import { actor, api_key, user } from './resources/identity.js';
import { organization, organization_membership, organization_membership_role } from './resources/organization.js';
import { cpu_architecture, device_type, device_type_alias } from './resources/device-type.js';
import { application, application_type } from './resources/application.js';

const all: ResourceDef[] = [
  actor,
  user,
  api_key,
  organization,
  organization_membership_role,
  organization_membership,
  cpu_architecture,
  device_type,
  device_type_alias,
  application_type,
  application,
];

export const model: Model = Object.fromEntries(all.map((r) => [r.name, r]));
