import type { FastifyInstance } from 'fastify';
import type { Rules } from '../../infra/app/context.js';
import { mapTileSource } from '../../infra/config/map-tiles.js';
import { dashboardConfigRoutes, stripeJsUrl } from './dashboard-config.routes.js';
import { statusRoutes } from './status.routes.js';
import { webRoutes } from './web.routes.js';

/** The dashboard's configuration and, when built, the dashboard itself. */
export async function setup(app: FastifyInstance, _rules: Rules): Promise<void> {
  const { config } = app.context;
  await app.register(dashboardConfigRoutes, {
    map: config.map,
    docsUrl: config.docsUrl,
    captchaSiteKey: config.accounts?.captcha?.siteKey,
    requireEmailVerification: config.accounts?.requireEmailVerification,
    billing: config.billing?.enabled === true,
    saml: config.samlEnabled !== false,
    links: config.links,
    announcement: config.announcement,
  });
  await app.register(statusRoutes, { feed: config.statusFeed });
  if (config.webDistDir) {
    const tiles = config.map?.tileUrl ? mapTileSource(config.map.tileUrl) : null;
    await app.register(webRoutes, {
      distDir: config.webDistDir,
      imgSources: tiles ? [tiles] : [],
      captcha: Boolean(config.accounts?.captcha?.siteKey),
      stripeJsUrl: stripeJsUrl(app),
    });
  }
}
