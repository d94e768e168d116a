// The few parts of oidc-provider 9 (no types of its own) that test/support/oauth-servers.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export type AdapterPayload = Record<string, unknown> & { uid?: string; grantId?: string; consumed?: number };
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(code: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }
  type AccessToken = { isExpired: boolean; aud?: string | string[]; scope?: string };
  export const errors: { InvalidTarget: new (description?: string) => Error };
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    AccessToken: { find(value: string): Promise<AccessToken | undefined> };
  }
}
