import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidFormat } from '#core/platform/errors';

/** With the u flag a surrogate pair is one code point, so this matches only a lone half (`\ud800`): not Unicode text. */
export const loneSurrogate = /[\uD800-\uDFFF]/u;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text, or undefined where they are not UTF-8 (a stray byte, an overlong form, an encoded surrogate). */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The body as text. API Gateway hands every body over base64 (the API takes every media type
 * as binary, lib/constructs/api.ts), and the local gateway does the same, so that bytes that
 * are not UTF-8 are refused here rather than silently replaced by U+FFFD on the way.
 */
export function bodyText(event: Pick<APIGatewayProxyEvent, 'isBase64Encoded'> & { body: string }): string {
  if (!event.isBase64Encoded) return event.body;
  const text = utf8Text(Buffer.from(event.body, 'base64'));
  if (text === undefined) throw new InvalidFormat('The body is not valid UTF-8.');
  return text;
}

/** The body's size in bytes as the client sent it. */
export const bodyBytes = (event: Pick<APIGatewayProxyEvent, 'isBase64Encoded'> & { body: string }): number =>
  Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8');

/** A name or value for a message: lone surrogates and controls escaped as JSON writes them, and bounded. */
export const shown = (text: string): string => {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 100 ? `${escaped.slice(0, 100)}…` : escaped;
};

/**
 * U+FFFD in a percent-decoded path or query: the mark a decoder leaves where the encoded
 * bytes were not UTF-8 (`%ff`, an encoded surrogate `%ed%a0%80`). The gateways decode the
 * URL before a function sees it, so this is the one sign left that the client sent bytes
 * that were not text.
 */
const replacementCharacter = /\uFFFD/u;

/**
 * Refuses a path parameter, query parameter or header (name or value) that is not Unicode
 * text: a lone surrogate anywhere, or, in the URL's parts, the replacement character that
 * stands for bytes that were not UTF-8. Whatever decoded it, a handler must only ever see
 * text. Bodies are checked as they are parsed (strict-json.ts).
 */
export function assertUnicodeParameters(event: APIGatewayProxyEvent): void {
  const places: [string, Record<string, string | string[] | undefined> | null | undefined, boolean][] = [
    ['path parameter', event.pathParameters, true],
    ['query parameter', event.multiValueQueryStringParameters ?? event.queryStringParameters, true],
    ['header', event.multiValueHeaders ?? event.headers, false],
  ];
  for (const [place, values, inUrl] of places) {
    for (const [name, value] of Object.entries(values ?? {})) {
      const texts = [name, ...(Array.isArray(value) ? value : value === undefined ? [] : [value])];
      if (texts.some((text) => loneSurrogate.test(text))) {
        throw new InvalidFormat(`The ${place} "${shown(name)}" is not valid Unicode text (it has a lone UTF-16 surrogate).`, {
          [shown(name)]: ['is not valid Unicode text (a lone UTF-16 surrogate)'],
        });
      }
      if (inUrl && texts.some((text) => replacementCharacter.test(text))) {
        throw new InvalidFormat(`The ${place} "${shown(name)}" is not valid UTF-8: percent-encode its text as UTF-8 bytes.`, {
          [shown(name)]: ['is not valid UTF-8 percent-encoding (U+FFFD stands in for bytes that were not UTF-8)'],
        });
      }
    }
  }
}
