import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { pineCount, pineGet } from '../../../lib/pine';
import { sdk } from '../../../lib/sdk';

/**
 * The organization's audit log (issue 19 item 2 staff reads; issue 21 item 5 writes and
 * actions): `audit_event` rows, newest first, a page at a time, optionally of one kind; its
 * hash chain's status and its NDJSON export (/audit/v1). The server lets only the
 * organization's administrators read them.
 */
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export const AUDIT_KINDS = ['write', 'action', 'staff_read'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditChange {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

export interface AuditPage {
  rows: {
    id: number;
    created_at: string;
    kind: string;
    performed_by_username: string;
    performed_as_username: string;
    staff_role: string | null;
    api_key: string | null;
    method: string;
    route: string;
    resource: string | null;
    action: string | null;
    row_ids: string | null;
    request: string;
    changes: Record<string, AuditChange> | null;
  }[];
  total: number;
}

export async function getAuditEvents(organizationId: number, kind: AuditKind | null, page: number, pageSize: number): Promise<AuditPage> {
  const $filter = kind ? { organization: organizationId, kind } : { organization: organizationId };
  const [rows, total] = await Promise.all([
    pineGet('audit_event', {
      $select: ['id', 'created_at', 'kind', 'performed_by_username', 'performed_as_username', 'staff_role', 'api_key', 'method', 'route', 'resource', 'action', 'row_ids', 'request', 'changes'],
      $filter,
      $orderby: [{ id: 'desc' }],
      $top: pageSize,
      $skip: page * pageSize,
    }),
    pineCount('audit_event', { $filter }),
  ]);
  return { rows: rows as AuditPage['rows'], total };
}

export const auditEventsQueryOptions = (organizationId: number, kind: AuditKind | null, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['organization', organizationId, 'audit-events', kind, page, pageSize] as const,
    queryFn: () => getAuditEvents(organizationId, kind, page, pageSize),
    placeholderData: keepPreviousData,
  });

export function useAuditEvents(organizationId: number, kind: AuditKind | null, page: number, pageSize: number) {
  return useQuery(auditEventsQueryOptions(organizationId, kind, page, pageSize));
}

/** The chain as the server walked it: rows checked, the last, and the first broken row if any. */
export interface ChainStatus {
  rows: number;
  lastId: number | null;
  headHash: string | null;
  broken: { id: number; reason: 'hash' | 'link' } | null;
}

export function useChainStatus(organizationId: number) {
  return useQuery({
    queryKey: ['organization', organizationId, 'audit-chain'] as const,
    queryFn: async () =>
      (await sdk.request.send<ChainStatus>({ method: 'GET', url: `/audit/v1/organization/${organizationId}/verify`, baseUrl: window.location.origin })).body,
  });
}

/** Saves the organization's log as NDJSON (the first export page; docs/audit-log.md pages the rest). */
export async function downloadAuditExport(organizationId: number): Promise<void> {
  const { body } = await sdk.request.send<string>({
    method: 'GET',
    url: `/audit/v1/organization/${organizationId}/events.ndjson`,
    baseUrl: window.location.origin,
    responseFormat: 'text',
  });
  const url = URL.createObjectURL(new Blob([body], { type: 'application/x-ndjson' }));
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = `audit-organization-${organizationId}.ndjson`;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** One line per changed row and field: `#12 value: "blue" → "green"`. */
export function describeChanges(changes: Record<string, AuditChange> | null): string[] {
  if (!changes) return [];
  const show = (v: unknown) => (v === undefined ? '∅' : JSON.stringify(v));
  const lines: string[] = [];
  for (const [id, c] of Object.entries(changes)) {
    const fields = new Set([...Object.keys(c.before ?? {}), ...Object.keys(c.after ?? {})]);
    for (const f of fields) lines.push(`#${id} ${f}: ${show(c.before?.[f])} → ${show(c.after?.[f])}`);
  }
  return lines;
}
