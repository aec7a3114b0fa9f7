import type { RouteOptions } from 'fastify';

/** A registered route as the schema check sees it. */
export interface RouteEntry {
  method: string;
  url: string;
  problems: string[];
  /** The audit action the route declares (`config.audit`, features/staff-audit/audit-log.ts), if any. */
  audit?: string;
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

/** Where a request schema leaves a string or an array unbounded (no maxLength / maxItems, enum or const). */
export function unboundedParts(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
  const fixed = 'enum' in s || 'const' in s;
  if (types.includes('string') && !fixed && typeof s.maxLength !== 'number') out.push(`${path || '(root)'}: string without maxLength`);
  if (types.includes('array') && !fixed && typeof s.maxItems !== 'number') out.push(`${path || '(root)'}: array without maxItems`);
  for (const [k, v] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) out.push(...unboundedParts(v, `${path}.${k}`));
  for (const key of ['items', 'additionalProperties', 'propertyNames'] as const) {
    if (typeof s[key] === 'object') out.push(...unboundedParts(s[key], `${path}[${key}]`));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((v, i) => out.push(...unboundedParts(v, `${path}{${key}${i}}`)));
  }
  return out;
}

/**
 * What a route lacks: a params schema naming each `:param` of its URL, and a body schema
 * when its method carries a body, unless it says why it validates its own input
 * (`config.ownInput`); every string and array those schemas accept must be bounded. Query
 * strings are declared by the routes that read one.
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
  for (const part of ['params', 'querystring', 'body'] as const) {
    for (const p of unboundedParts((schema as Record<string, unknown>)[part])) problems.push(`${part}${p}`);
  }
  return problems;
}
