// The part of oidc-provider (which ships no types) the authorization server uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type AdapterPayload = Record<string, unknown>;

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    grantId?: string;
    session?: { accountId?: string };
  }

  export interface ClientInstance {
    clientId: string;
    clientName?: string;
    clientUri?: string;
    logoUri?: string;
    redirectUris?: string[];
    grantTypeAllowed(type: string): boolean;
  }

  export interface AccessTokenInstance {
    accountId?: string;
    clientId?: string;
    grantId?: string;
    scope?: string;
    aud?: string | string[];
    readonly isExpired: boolean;
  }

  export interface GrantInstance {
    accountId?: string;
    clientId?: string;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    rejectOIDCScope(scope: string): void;
    getResourceScope(resource: string): string;
    save(): Promise<string>;
  }

  export interface KoaContext {
    oidc: { params?: Record<string, unknown>; route?: string };
    request: { url: string };
  }

  export class errors {
    static InvalidTarget: new (description?: string) => Error;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: unknown[]) => void): this;
    AccessToken: { find(token: string): Promise<AccessTokenInstance | undefined> };
    Client: { find(id: string): Promise<ClientInstance | undefined> };
    Grant: { new (properties: { accountId: string; clientId: string }): GrantInstance; find(id: string): Promise<GrantInstance | undefined> };
  }
}
