import { createHash } from 'node:crypto';
import { encodeTime } from 'ulid';
import { idPrefixes } from '#core/platform/ids';

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 80 bits as the 16 base32 characters of a ULID's random part. */
function base32Of80Bits(bytes: Buffer): string {
  let bits = 0n;
  for (const byte of bytes.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte);
  let text = '';
  for (let i = 0; i < 16; i++) {
    text = crockford[Number(bits & 31n)] + text;
    bits >>= 5n;
  }
  return text;
}

/**
 * The id of an event's delivery to an endpoint: `del_` and a ULID whose time is the
 * event's and whose random part is a hash of the two ids. Fanning an event out again
 * yields the same ids, so a conditional create makes each delivery once; and deliveries
 * sort in their events' order, as a list newest first wants.
 */
export function deliveryIdOf(eventId: string, eventCreatedAt: string, endpointId: string): string {
  const random = base32Of80Bits(createHash('sha256').update(`${eventId}\n${endpointId}`).digest());
  return `${idPrefixes.delivery}_${encodeTime(Date.parse(eventCreatedAt), 10)}${random}`;
}
