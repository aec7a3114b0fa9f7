/** One application a member can reach, and how (mirrors get-member-access.ts's items). */
export interface AccessItem {
  key: string;
  applicationId: number;
  name: string;
  appClass: string;
  role: string;
  /** The team that grants it, or undefined for direct access or the organization role. */
  via: string | undefined;
}

export interface OrganizationApplication {
  id: number;
  app_name: string;
  is_of__class: string;
}

/**
 * What a member can reach (spec 1 §2 member summary, grouped by access role): an
 * organization administrator has administrator access to every application of the
 * organization (spec 1 §9: the effective role is the highest of organization membership,
 * fleet membership and team access), whatever their direct or team grants say; anyone else
 * has their direct and team grants.
 */
export function effectiveAccess(organizationRole: string | null, grants: AccessItem[], organizationApps: OrganizationApplication[]): AccessItem[] {
  const items =
    organizationRole === 'administrator'
      ? organizationApps.map((app) => ({ key: `o${app.id}`, applicationId: app.id, name: app.app_name, appClass: app.is_of__class, role: 'administrator', via: undefined }))
      : grants;
  return [...items].sort((a, b) => a.name.localeCompare(b.name));
}
