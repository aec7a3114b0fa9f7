import type { FastifyInstance } from 'fastify';
import type { TicketField } from '@flotilla/model';
import type { ZendeskConfig } from '../../infra/app/context.js';
import { HttpError } from '../../infra/errors.js';
import { LinkSigner } from '../../infra/files/signed-links.js';
import type { WebResources } from '../../infra/files/web-resources.js';
import { FILE_ROUTE_PREFIX } from '../../infra/files/web-resources.js';
import { selectFields, setForwarded, type FieldValue, type TicketRow, type UploadRow } from './support.repository.js';
import { zendeskCreateTicket, zendeskTicketFields } from './zendesk-bridge.js';

/** How long the attachment links in the support inbox's mail work. */
export const MAILED_LINK_DAYS = 30;
/** How long the attachment links on a ticket's page work (the page reads them anew). */
export const PAGE_LINK_SECONDS = 60 * 60;
/** Uploads no ticket took within this long are dropped. */
export const STALE_UPLOAD_MS = 24 * 60 * 60 * 1000;

/** Where the ticket form's fields came from: the local table, or the bridged Zendesk. */
export interface FieldSet {
  source: 'local' | 'zendesk';
  fields: TicketField[];
}

/**
 * One app's helpdesk: its file store and link signer, and, with the Zendesk bridge, the
 * fields Zendesk last answered (used while it cannot be reached). Made by the feature's
 * setup; nothing in module scope.
 */
export class Helpdesk {
  private lastZendeskFields: TicketField[] | null = null;
  readonly signer: LinkSigner;

  constructor(
    readonly app: FastifyInstance,
    readonly files: WebResources,
  ) {
    this.signer = new LinkSigner(app.context.config.jwtSecret, () => app.context.clock());
  }

  get zendesk(): ZendeskConfig | undefined {
    return this.app.context.config.support?.zendesk;
  }

  get inbox(): string | undefined {
    return this.app.context.config.support?.email;
  }

  /**
   * The ticket form's fields: the local table; with the bridge, Zendesk's. While Zendesk cannot
   * be reached the fields it last answered serve (their ids stay Zendesk's), or, before it ever
   * answered, the local ones: the form keeps working and tickets are stored here; forwarding
   * them then fails with what to do (docs/decisions.md).
   */
  async fields(): Promise<FieldSet> {
    const cfg = this.zendesk;
    const local = async (): Promise<FieldSet> => ({ source: 'local', fields: await selectFields(this.app.context.db, true) });
    if (!cfg) return local();
    try {
      this.lastZendeskFields = await zendeskTicketFields(cfg);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      this.app.log.warn({ err: err.message }, 'Zendesk unreachable: the ticket form uses the fields it last answered, or the local ones');
      if (!this.lastZendeskFields) return local();
    }
    return { source: 'zendesk', fields: this.lastZendeskFields! };
  }

  /** A signed link to a stored file, on the public URL (mails) or the caller's origin (pages). */
  fileLink(key: string, seconds: number, origin?: string): string {
    const { expires, signature } = this.signer.sign(`file:${key}`, seconds);
    const path = `${FILE_ROUTE_PREFIX}/${key}?expires=${expires}&signature=${signature}`;
    return origin ? `${origin}${path}` : this.app.context.mailer.publicLink(path);
  }

  attachmentsOf(uploads: readonly UploadRow[], seconds: number, origin?: string) {
    return uploads.map((u) => ({ id: u.id, filename: u.filename, content_type: u.content_type, size: u.size, url: this.fileLink(u.file_key, seconds, origin) }));
  }

  /**
   * With the bridge: creates the ticket in Zendesk (after it is stored here). The outcome is
   * kept on the ticket (its Zendesk id, or why it failed: agents see it in /admin) and
   * returned; it never undoes the stored ticket.
   */
  async forward(ticket: TicketRow, source: FieldSet['source'], uploads: readonly UploadRow[]): Promise<{ zendeskId: number } | { error: string } | null> {
    const cfg = this.zendesk;
    if (!cfg) return null;
    const lines = [ticket.description, '', `Organization: ${ticket.organization_name} (${ticket.organization_handle})`];
    if (source === 'local') lines.push(...ticket.field_values.map((f: FieldValue) => `${f.title}: ${f.display}`));
    const files = this.attachmentsOf(uploads, MAILED_LINK_DAYS * 24 * 3600);
    if (files.length > 0) lines.push('', `Attachments (links work for ${MAILED_LINK_DAYS} days):`, ...files.map((f) => `${f.filename}: ${f.url}`));
    let result: { zendeskId: number } | { error: string };
    try {
      const zendeskId = await zendeskCreateTicket(cfg, {
        subject: ticket.subject,
        body: lines.join('\n'),
        requester: { name: ticket.requester_username, email: ticket.requester_email },
        ccEmails: ticket.cc_emails,
        customFields: source === 'zendesk' ? ticket.field_values.map((f) => ({ id: f.id, value: f.value })) : [],
        tags: ['flotilla', `flotilla_ticket_${ticket.id}`],
      });
      result = { zendeskId };
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      result = { error: err.message };
      this.app.log.warn({ ticket: ticket.id, err: err.message }, 'support ticket not forwarded to Zendesk');
    }
    await setForwarded(this.app.context.db, ticket.id, 'zendeskId' in result ? { zendeskId: result.zendeskId, error: null } : { zendeskId: null, error: result.error });
    return result;
  }
}
