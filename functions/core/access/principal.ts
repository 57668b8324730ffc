import type { Environment } from '#core/platform/environments';
import type { RateLimitState } from '#core/platform/rate-limits';
import type { Tier } from '#core/platform/tiers';
import type { Role } from '#core/store/roles';

const credentialTypes = ['api_key', 'user_token', 'session', 'oauth'] as const;
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
  /** The caller's role in the home workspace, from the membership the authorizer read. */
  role: Role;
  environment: Environment;
  scopes: string[];
  /** The tier the request is limited at: the metered workspace's (an API key's own, where lower). */
  tier: Tier;
  credential: { type: CredentialType; id: string };
  /** Present when the home workspace is suspended. */
  suspension?: Suspension;
  /** When a platform admin marked the home workspace unpaid; absent while it is paid. */
  unpaidSince?: string;
  /** What the credential itself is bound by; what it creates or rotates may not escape it (issuance-limits.ts). */
  limits?: { expiresAt?: string; allowedIps?: string[]; tier?: Tier; workspaceId?: string };
  /**
   * The workspace the request is metered in: the one it acts in (X-Workspace-ID or
   * `workspace_id`, where the user is a member), else the home workspace (absent: the home).
   */
  meteredWorkspaceId?: string;
  /** The API Gateway key the request is metered under in the usage plans: the metered workspace's (authorizer/authorize.ts). */
  usageKey?: string;
  /** The metered workspace's monthly api_calls limit, its tier's plus its packages'; null is unlimited. */
  apiCallsLimit?: number | null;
  /** The credential's rate-limit state after counting this request (set by the authorizer). */
  rateLimit?: RateLimitState;
  /**
   * Set by the mcp function on the operation an MCP tool call runs (never by the authorizer,
   * and a client cannot write the authorizer context): the call holds one of the
   * credential's concurrency slots already, so the operation (batch) takes no second one.
   */
  holdsConcurrencySlot?: true;
}

/**
 * Who acts, for the domain: a user, and where known the workspace and role the caller's
 * credential already established (a Principal is one), so that the role in that workspace
 * need not be read again.
 */
export interface Actor {
  userId: number;
  workspaceId?: string;
  role?: Role;
  /** `workspaceId`: the only workspace the credential may act in (an OAuth token's client's); others are 404 to it. */
  limits?: { workspaceId?: string };
  /** The credential's environment, which the events of its changes carry; absent (admin CLI, links): `live`. */
  environment?: Environment;
}
