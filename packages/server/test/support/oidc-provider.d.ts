// The few parts of oidc-provider (v8, a dev dependency without its own types) that the test
// OpenID provider uses (oidc-test-provider.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface GrantInstance {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
      provider: Provider;
    };
  }
  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }
  export interface Configuration {
    clients?: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    cookies?: { keys?: string[] };
    claims?: Record<string, string[] | null>;
    scopes?: string[];
    features?: Record<string, { enabled?: boolean }>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string };
    findAccount?(ctx: KoaContextWithOIDC, sub: string): Promise<Account | undefined> | Account | undefined;
    loadExistingGrant?(ctx: KoaContextWithOIDC): Promise<GrantInstance | undefined>;
    pkce?: { required?(): boolean };
    ttl?: Record<string, number>;
    renderError?(ctx: { type: string; body: unknown }, out: Record<string, unknown>, error: Error): void | Promise<void>;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    Grant: {
      new (init: { clientId: string; accountId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
