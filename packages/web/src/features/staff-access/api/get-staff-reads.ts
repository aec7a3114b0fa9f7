import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pineCount, pineGet } from '../../../lib/pine';

/**
 * The organization's staff access log (issue 19 item 2): `audit_event` rows of kind
 * `staff_read`, newest first, a page at a time. The server lets only the organization's
 * administrators read them.
 */
export const STAFF_READS_PAGE_SIZES = [25, 50, 100] as const;

export interface StaffReadsPage {
  rows: { id: number; created_at: string; performed_by_username: string; performed_as_username: string; staff_role: string | null; method: string; route: string; resource: string | null; request: string }[];
  total: number;
}

export async function getStaffReads(organizationId: number, page: number, pageSize: number): Promise<StaffReadsPage> {
  const $filter = { organization: organizationId, kind: 'staff_read' };
  const [rows, total] = await Promise.all([
    pineGet('audit_event', {
      $select: ['id', 'created_at', 'performed_by_username', 'performed_as_username', 'staff_role', 'method', 'route', 'resource', 'request'],
      $filter,
      $orderby: [{ created_at: 'desc' }, { id: 'desc' }],
      $top: pageSize,
      $skip: page * pageSize,
    }),
    pineCount('audit_event', { $filter }),
  ]);
  return { rows, total };
}

export const staffReadsQueryOptions = (organizationId: number, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['organization', organizationId, 'staff-reads', page, pageSize] as const,
    queryFn: () => getStaffReads(organizationId, page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useStaffReads(organizationId: number, page: number, pageSize: number) {
  return useQuery(staffReadsQueryOptions(organizationId, page, pageSize));
}
