import { createHmac, hkdfSync } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import type { ApiResponse } from '#core/http/types';
import { decrypt, encrypt } from '#core/platform/aes-gcm';
import { ApiError, ResourceLocked, reviveError, type SerializedError, serializeError, ValidationFailed } from '#core/platform/errors';
import type { Database } from '#core/store/database';
import type { IdempotentRequest } from './idempotent-routes.ts';
import { inProgressMs, TablePersistenceLayer } from './table-persistence.ts';

/** The spec's retention of an Idempotency-Key. */
export const idempotencyRetentionSeconds = 24 * 3600;

/** A completed outcome: the handler's answer, or the client's error (4xx) it ended in. */
type Outcome = { response: ApiResponse } | { refusal: SerializedError };

/**
 * An outcome as stored: encrypted (AES-256-GCM) under a key derived from the client's
 * Idempotency-Key, which is itself stored only as a digest. An answer that shows a secret
 * once (a new API key, a user token) is thus replayable to whoever holds the key, and
 * readable by no one who reads the table.
 */
interface SealedOutcome {
  sealed: string;
}

const derivedKey = (request: IdempotentRequest, purpose: string) =>
  Buffer.from(hkdfSync('sha256', request.key, request.owner, purpose, 32));
const sealingKey = (request: IdempotentRequest) => derivedKey(request, 'idempotent outcome');

/**
 * The request as Powertools stores it to tell a repeat from another request: its
 * fingerprint HMAC'd under a key derived from the Idempotency-Key, so that the stored
 * hash tests no guess (a password in a body, PUT /user/password) without the key, which
 * the table never holds.
 */
const keyedRequest = (request: IdempotentRequest) => ({
  owner: request.owner,
  key: request.key,
  fingerprint: createHmac('sha256', derivedKey(request, 'idempotent fingerprint'))
    .update(JSON.stringify(request.fingerprint))
    .digest('base64url'),
});

function seal(outcome: Outcome, request: IdempotentRequest): SealedOutcome {
  const { iv, tag, text } = encrypt(sealingKey(request), JSON.stringify(outcome));
  return { sealed: [iv, tag, text].map((part) => part.toString('base64')).join('.') };
}

function unseal({ sealed }: SealedOutcome, request: IdempotentRequest): Outcome {
  const [iv, tag, text] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
  return JSON.parse(decrypt(sealingKey(request), { iv: iv!, tag: tag!, text: text! })) as Outcome;
}

const config = new IdempotencyConfig({
  eventKeyJmesPath: '[owner, key]',
  payloadValidationJmesPath: 'fingerprint',
  expiresAfterSeconds: idempotencyRetentionSeconds,
  hashFunction: 'sha256',
  throwOnNoIdempotencyKey: true,
});
// No Lambda context reaches here: a request's in-progress record lasts as long as the function may run.
config.registerLambdaContext({ getRemainingTimeInMillis: () => inProgressMs } as Context);

/** One persistence layer per table: Powertools configures a layer once, on first use. */
const layers = new WeakMap<Database, TablePersistenceLayer>();
const layerOf = (db: Database) => {
  let layer = layers.get(db);
  if (!layer) layers.set(db, (layer = new TablePersistenceLayer(db)));
  return layer;
};

const replayedHeader = { 'Idempotent-Replayed': 'true' };

/**
 * Runs `handle` at most once per owner and Idempotency-Key for 24 hours, with Powertools'
 * `makeIdempotent` over a frozen copy of the request, not its middy middleware (Powertools
 * issues 5675, a refused repeat deletes the first's record; 5715, body parsing breaks the key).
 * Our own faults (5xx) are not kept, so that a retry can succeed.
 */
export async function runIdempotently(db: Database, request: IdempotentRequest, handle: () => Promise<ApiResponse>): Promise<ApiResponse> {
  let ran = false;
  const once = makeIdempotent(
    async (_request: ReturnType<typeof keyedRequest>): Promise<SealedOutcome> => {
      ran = true;
      try {
        return seal({ response: await handle() }, request);
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) return seal({ refusal: serializeError(error) }, request);
        throw error;
      }
    },
    { persistenceStore: layerOf(db), config, keyPrefix: 'request' },
  );
  let outcome: Outcome;
  try {
    outcome = unseal(await once(Object.freeze(keyedRequest(request))), request);
  } catch (error) {
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new ResourceLocked('A request with this Idempotency-Key is still running; retry when it has completed.');
    }
    if (error instanceof IdempotencyValidationError) {
      throw new ValidationFailed({
        'Idempotency-Key': [
          `was used for a different request (method, path, query or body) in the last ${idempotencyRetentionSeconds / 3600} hours`,
        ],
      });
    }
    throw error;
  }
  const replayed = ran ? {} : replayedHeader;
  if ('refusal' in outcome) throw reviveError(outcome.refusal, replayed);
  return { ...outcome.response, headers: { ...outcome.response.headers, ...replayed } };
}

export type IdempotencyRunner = typeof runIdempotently;
