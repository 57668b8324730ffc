import { createHmac, timingSafeEqual } from 'node:crypto';
import { sharedKey } from '#core/platform/config';
import { ValidationFailed } from '#core/platform/errors';

/** Where a walk through a list stands: after which key, and how many items came before. */
export interface CursorPosition {
  /** The store's position after the last item given (store/key-order.ts `next`). */
  after: string;
  /** Items before the next page, for `meta.from` and `to`. */
  position: number;
}

const signatureOf = (binding: string, payload: string) =>
  createHmac('sha256', sharedKey('CURSOR_SIGNING_KEY')).update(`${binding}\n${payload}`).digest();

/**
 * A cursor: the position, and an HMAC of it together with `binding` (the list and its
 * order). The client cannot alter it, nor replay it on another tenant's list or another
 * order, because the signature would not match there.
 */
export function signCursor(binding: string, at: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([at.after, at.position])).toString('base64url');
  return `${payload}.${signatureOf(binding, payload).toString('base64url')}`;
}

const refused = () =>
  new ValidationFailed(
    {
      cursor: [
        'is not a cursor of this list and order: it was altered, or given by another list or query; start again from the first page',
      ],
    },
    'The cursor is not valid here.',
  );

/** The position a cursor holds, if this API signed it for this very binding; a 422 otherwise. */
export function readCursor(binding: string, cursor: string): CursorPosition {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw refused();
  const expected = signatureOf(binding, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  const [after, position] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, number];
  return { after, position };
}
