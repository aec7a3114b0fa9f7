import type { SupportRefusal, TicketField, TicketStatus, TicketSubmission } from '@flotilla/model';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useInstallConfig } from '../../../lib/dashboard-config';
import { sdk } from '../../../lib/sdk';

/**
 * /support (issue 19 item 1, spec 3 §7 Support calls): the organizations the user may file for,
 * whether they may, the ticket fields, attachment uploads and the ticket itself through the
 * spec's `/zendesk/v1/{org}/…` calls (balena-sdk's `request.send`), and the organization's
 * tickets with their replies.
 */

const origin = () => window.location.origin;
const get = async <T>(url: string): Promise<T> => (await sdk.request.send<T>({ method: 'GET', url, baseUrl: origin() })).body;
const post = async <T>(url: string, body: object): Promise<T> => (await sdk.request.send<T>({ method: 'POST', url, baseUrl: origin(), body })).body;

const key = ['support'] as const;

export interface SupportOrganization {
  id: number;
  name: string;
  handle: string;
}

/** Organizations the user is a member of, by name. */
export function useSupportOrganizations() {
  return useQuery({
    queryKey: [...key, 'organizations'],
    queryFn: async (): Promise<SupportOrganization[]> => {
      const { id: userId } = await sdk.auth.getUserInfo();
      const rows = await sdk.models.organization.getAll({
        $select: ['id', 'name', 'handle'],
        $filter: { organization_membership: { $any: { $alias: 'om', $expr: { om: { user: userId } } } } },
        $orderby: { name: 'asc' },
      });
      return rows.map((o) => ({ id: o.id, name: o.name, handle: o.handle }));
    },
  });
}

export interface SupportAccess {
  allowed: boolean;
  reason: SupportRefusal | null;
  message: string | null;
  is_administrator: boolean;
}

export function useSupportAccess(organizationId: number | null) {
  return useQuery({
    queryKey: [...key, 'access', organizationId],
    queryFn: () => get<SupportAccess>(`/zendesk/v1/${organizationId}/access`),
    enabled: organizationId !== null,
  });
}

export function useTicketFields(organizationId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: [...key, 'fields', organizationId],
    queryFn: async () => (await get<{ ticket_fields: TicketField[] }>(`/zendesk/v1/${organizationId}/ticket-fields`)).ticket_fields,
    enabled: organizationId !== null && enabled,
    retry: false,
  });
}

export interface UploadedAttachment {
  token: string;
  name: string;
  size: number;
}

/** POST …/upload-attachment, multipart (balena-sdk sends a File in the body as form data). */
export function useUploadAttachment(organizationId: number) {
  return useMutation({
    mutationFn: async (file: File): Promise<UploadedAttachment> => {
      const body = await post<{ upload: { token: string } }>(`/zendesk/v1/${organizationId}/upload-attachment`, { file });
      return { token: body.upload.token, name: file.name, size: file.size };
    },
  });
}

export interface SubmittedTicket {
  request: { id: number; status: TicketStatus; subject: string; created_at: string };
  zendesk?: { id: number | null; error: string | null };
}

export function useSubmitTicket(organizationId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ticket: TicketSubmission) => post<SubmittedTicket>(`/zendesk/v1/${organizationId}/submit-ticket`, ticket),
    onSuccess: () => client.invalidateQueries({ queryKey: [...key, 'tickets', organizationId] }),
  });
}

export interface TicketSummary {
  id: number;
  created_at: string;
  updated_at: string;
  status: TicketStatus;
  subject: string;
  organization: { id: number; name: string; handle: string };
  requester: { id: number | null; username: string; email: string };
}

export interface TicketDetail extends TicketSummary {
  description: string;
  email_ccs: string[];
  fields: { id: number; title: string; display: string }[];
  attachments: { id: number; filename: string; size: number; url: string }[];
  replies: { id: number; created_at: string; author: string; body: string }[];
}

export const TICKETS_PAGE_SIZE = 10;

export function useOrganizationTickets(organizationId: number | null, page: number) {
  return useQuery({
    queryKey: [...key, 'tickets', organizationId, page],
    queryFn: () => get<{ total: number; tickets: TicketSummary[] }>(`/zendesk/v1/${organizationId}/tickets?limit=${TICKETS_PAGE_SIZE}&offset=${page * TICKETS_PAGE_SIZE}`),
    enabled: organizationId !== null,
  });
}

export function useOrganizationTicket(organizationId: number, ticketId: number | null) {
  return useQuery({
    queryKey: [...key, 'tickets', organizationId, 'one', ticketId],
    queryFn: () => get<TicketDetail>(`/zendesk/v1/${organizationId}/tickets/${ticketId}`),
    enabled: ticketId !== null,
  });
}

/** The support menu's links (spec 3 §2; FLOTILLA_LINK_* through GET /config/dashboard); a link not configured is null (hidden). */
export interface SupportLinks {
  helpCenterUrl: string | null;
  forumsUrl: string | null;
  featureRequestsUrl: string | null;
  docsUrl: string;
}

export function useSupportLinks(): SupportLinks {
  const { links, docsUrl } = useInstallConfig();
  return { helpCenterUrl: links.helpCenterUrl, forumsUrl: links.forumsUrl, featureRequestsUrl: links.featureRequestsUrl, docsUrl };
}
