import type { Tier } from '../tiers.ts';
import type { Environment } from './api-key-format.ts';

/** Who is calling, as the authorizer established it. */
export interface Principal {
  userId: number;
  /** The credential's home workspace; the request's workspace unless the client names another. */
  workspaceId: string;
  environment: Environment;
  scopes: string[];
  tier: Tier;
  credential: { type: 'api_key'; id: string };
}
