import type { Tier } from '../tiers.ts';
import type { Environment } from './api-key-format.ts';

export const credentialTypes = ['api_key', 'user_token', 'session', 'oauth'] as const;
export type CredentialType = (typeof credentialTypes)[number];

export interface Suspension {
  suspendedAt: string;
  reason: string;
}

/** Who is calling, as the authorizer established it. */
export interface Principal {
  userId: number;
  /** The credential's home workspace; the request's workspace unless the client names another. */
  workspaceId: string;
  environment: Environment;
  scopes: string[];
  tier: Tier;
  credential: { type: CredentialType; id: string };
  /** Present when the home workspace is suspended. */
  suspension?: Suspension;
}
