import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELEASE_ASSET_MAX_BYTES } from '@flotilla/model';
import { DirectoryFileStore, type FileStore } from './file-store.js';
import { fileRoutes } from './routes.js';
import { LinkSigner } from './signed-links.js';
import { WebResources } from './web-resources.js';

export interface FilesOptions {
  /** Where files are kept; default a fresh temporary directory, removed on close (tests). */
  store?: FileStore;
  /** Largest file a WebResource field may hold; default RELEASE_ASSET_MAX_BYTES. */
  maxBytes?: number;
}

/** Stored files of WebResource fields (release assets): the store, its signed links and routes. */
export async function installFiles(app: FastifyInstance, opts: FilesOptions = {}): Promise<WebResources> {
  let store = opts.store;
  if (!store) {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-files-'));
    app.addHook('onClose', async () => rm(dir, { recursive: true, force: true }));
    store = new DirectoryFileStore(dir);
  }
  const signer = new LinkSigner(app.context.config.jwtSecret);
  const files = new WebResources({
    app: app.context,
    db: app.context.db,
    store,
    signer,
    maxBytes: opts.maxBytes ?? RELEASE_ASSET_MAX_BYTES,
    onError: (err) => app.log.error({ err }, 'stored files'),
  });
  await app.register(fileRoutes, { files, signer });
  return files;
}
