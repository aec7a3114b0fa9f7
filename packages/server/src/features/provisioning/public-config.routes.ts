import type { FastifyInstance } from 'fastify';

/**
 * `GET /config` (no auth): balena's public configuration document as balena-sdk's
 * `models.config.getAll` returns it, holding only what means something here. Flotilla has
 * no public device URLs, git server, analytics, billing or social sign-in: `deviceUrlsBase`
 * is the server's host name (balena-sdk builds device URLs from it), `adminUrl` the
 * dashboard, `gitServerUrl` empty, `deployment` null, no social providers.
 */
export async function publicConfigRoutes(app: FastifyInstance, { publicUrl }: { publicUrl: string }): Promise<void> {
  const url = new URL(publicUrl);
  const body = {
    deployment: null,
    deviceUrlsBase: url.hostname,
    adminUrl: url.origin,
    gitServerUrl: '',
    signupCodeRequired: false,
    supportedSocialProviders: [] as string[],
  };
  app.get('/config', async (_request, reply) => reply.header('cache-control', 'no-cache').send(body));
}
