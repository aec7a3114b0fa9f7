import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { renderMarkdown } from './markdown.js';

/** A guide page's name: the file docs/guide/<name>.md. */
const PAGE = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The guide pages' own policy: no script at all, their inline style only. */
const DOCS_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2328}' +
  'a{color:#1565c0}code{background:#f0f3f6;padding:0 .25em;border-radius:4px}pre{background:#f0f3f6;padding:1em;overflow:auto}' +
  'nav{margin-bottom:1.5rem}';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Flotilla documentation</title><style>${STYLE}</style></head><body><nav><a href="/docs/">Flotilla documentation</a> · <a href="/">Dashboard</a></nav><main>${body}</main></body></html>`;
}

/**
 * Flotilla's own guides (issue 11): the markdown files under docs/guide/, served as HTML at
 * `/docs/` (index.md) and `/docs/{page}`. The dashboard's documentation links point here
 * unless FLOTILLA_DOCS_URL names other docs (GET /config/dashboard `docsUrl`).
 */
export async function docsRoutes(app: FastifyInstance, { dir }: { dir: string }): Promise<void> {
  const send = async (name: string, reply: import('fastify').FastifyReply) => {
    const source = PAGE.test(name) ? await readFile(join(dir, `${name}.md`), 'utf8').catch(() => undefined) : undefined;
    reply.header('Content-Security-Policy', DOCS_POLICY).header('Cache-Control', 'no-cache');
    if (source === undefined) return reply.code(404).type('text/html; charset=utf-8').send(page('Not found', '<h1>Page not found</h1><p><a href="/docs/">All guides</a></p>'));
    const title = /^#\s+(.+)$/m.exec(source)?.[1] ?? name;
    return reply.type('text/html; charset=utf-8').send(page(title, renderMarkdown(source)));
  };
  app.get('/docs', async (_request, reply) => reply.redirect('/docs/'));
  app.get('/docs/', async (_request, reply) => send('index', reply));
  app.get<{ Params: { page: string } }>(
    '/docs/:page',
    { schema: { params: { type: 'object', properties: { page: { type: 'string', maxLength: 64 } }, required: ['page'] } } },
    async (request, reply) => send(request.params.page.replace(/\.md$/, ''), reply),
  );
}
