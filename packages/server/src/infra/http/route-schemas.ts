import type { RouteOptions } from 'fastify';

/** A registered route as the schema check sees it. */
export interface RouteEntry {
  method: string;
  url: string;
  problems: string[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Why this route validates its own input instead of declaring a schema for it (a
     * catch-all that parses its own URL, a binary upload). Set only with such a reason.
     */
    ownInput?: string;
  }
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasObjectSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null;
}

/**
 * What a route lacks: a params schema naming each `:param` of its URL, and a body schema
 * when its method carries a body, unless it says why it validates its own input
 * (`config.ownInput`). Query strings are declared by the routes that read one.
 */
export function routeSchemaProblems(route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>): string[] {
  const problems: string[] = [];
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
  const own = (route.config as { ownInput?: string } | undefined)?.ownInput;
  const schema = (route.schema ?? {}) as { params?: { properties?: Record<string, unknown> }; body?: unknown };
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  for (const name of names) {
    if (!schema.params?.properties?.[name]) problems.push(`no params schema for :${name}`);
  }
  if (route.url.includes('*') && !own) problems.push('a wildcard route must say how it validates its input (config.ownInput)');
  if (methods.some((m) => BODY_METHODS.has(m)) && !hasObjectSchema(schema.body) && !own) problems.push('no body schema');
  return problems;
}
