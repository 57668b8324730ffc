import * as z from 'zod/mini';
import { isKnownScope } from '#core/access/scopes';
import { resourceName } from '#core/platform/common-schemas';
import { idPattern, newId } from '#core/platform/ids';
import { randomBase62, sha256 } from '#core/platform/secrets';
import { singleLine } from '#core/platform/text-rules';
import { validate } from '#core/platform/validation';
import type { Deps } from '#core/ports/deps';
import { oauthGrants } from '#core/store/entities/oauth-client';
import type { OAuthClientItem } from '#core/store/items';
import { roleIn } from '#core/tenancy/membership';

const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RFC 6749 section 3.1.2: absolute, no fragment. https, or http on the client's own
 * machine (RFC 8252 section 7.3, native apps and local development). Kept as given, because
 * a redirect_uri must match a registered one exactly.
 */
function isRedirectUri(value: string): boolean {
  if (!URL.canParse(value) || value.includes('#')) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}

const newClientSchema = z
  .object({
    name: resourceName,
    ownerUserId: z.int().check(z.positive()),
    workspaceId: z.string().check(z.regex(idPattern('workspace'), 'must be a workspace id (wks_...)')),
    redirectUris: z
      .array(
        z
          .string()
          .check(
            singleLine(),
            z.refine(isRedirectUri, 'must be an absolute https:// URL without a fragment (http:// only on a loopback host)'),
          ),
      )
      .check(z.maxLength(20)),
    grants: z.pipe(
      z.array(z.enum(oauthGrants)).check(z.minLength(1)),
      z.transform((grants: (typeof oauthGrants)[number][]) => [...new Set(grants)]),
    ),
    scopes: z.array(z.string().check(z.refine(isKnownScope, 'is not a known scope'))).check(z.minLength(1), z.maxLength(50)),
    confidential: z.boolean(),
  })
  .check(
    z.superRefine((client, context) => {
      if (client.grants.includes('authorization_code') && !client.redirectUris.length) {
        context.addIssue({ code: 'custom', path: ['redirectUris'], message: 'the authorization_code grant needs at least one' });
      }
      if (client.grants.includes('client_credentials') && !client.confidential) {
        context.addIssue({ code: 'custom', path: ['grants'], message: 'client_credentials is for confidential clients only' });
      }
    }),
  );

export type NewOAuthClient = z.input<typeof newClientSchema>;

/**
 * Registers an OAuth client. A confidential one gets a secret, returned this once and kept
 * as a digest only; a public one has none and must use PKCE. The owner must be a member of
 * the workspace: client credentials tokens act for that user there.
 */
export async function registerOAuthClient(deps: Deps, input: NewOAuthClient): Promise<{ clientId: string; clientSecret?: string }> {
  const client = validate(newClientSchema, input, 'client');
  await roleIn(deps, client.workspaceId, { userId: client.ownerUserId });
  const clientId = newId('oauthClient');
  const clientSecret = client.confidential ? randomBase62(48) : undefined;
  await deps.db.entities.oauthClient
    .create({
      id: clientId,
      name: client.name,
      ownerUserId: client.ownerUserId,
      workspaceId: client.workspaceId,
      redirectUris: client.redirectUris,
      grants: client.grants,
      scopes: client.scopes,
      secretDigest: clientSecret && sha256(clientSecret),
      createdAt: deps.clock.now().toISOString(),
    })
    .go();
  return clientSecret ? { clientId, clientSecret } : { clientId };
}

const clientIdPattern = idPattern('oauthClient');

export async function findOAuthClient(deps: Deps, id: string): Promise<OAuthClientItem | undefined> {
  // Anything else is no client of ours, and an overlong id would break the key's size limit.
  if (!clientIdPattern.test(id)) return undefined;
  const { data } = await deps.db.entities.oauthClient.get({ id }).go({ consistent: true });
  return data ?? undefined;
}
