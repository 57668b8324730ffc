import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidFormat } from '#core/platform/errors';
import { headerValue } from './proxy-event.ts';
import { bodyText, shown } from './unicode-text.ts';

const formMediaType = 'application/x-www-form-urlencoded';

/** Whether the percent-encoded bytes of a form's `name=value` are UTF-8 (a `%` without two hex digits after it is itself, as URLSearchParams reads it). */
function isUtf8Encoded(pair: string): boolean {
  try {
    decodeURIComponent(pair.replaceAll('+', ' ').replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The fields of an application/x-www-form-urlencoded body. A field sent twice is refused:
 * which value counts would be a guess, and OAuth forbids it (RFC 6749 section 3.2). So is
 * a field whose percent-encoded bytes are not UTF-8, which URLSearchParams would silently
 * turn into U+FFFD.
 */
export function formFields(event: APIGatewayProxyEvent & { body: string }): Record<string, string> {
  const mediaType = headerValue(event, 'content-type')?.split(';')[0].trim().toLowerCase();
  if (mediaType !== formMediaType) throw new InvalidFormat(`Send the body as ${formMediaType}.`);
  const text = bodyText(event);
  const badPair = text.split('&').find((pair) => !isUtf8Encoded(pair));
  if (badPair !== undefined) {
    const [name = ''] = new URLSearchParams(badPair).keys();
    throw new InvalidFormat(`The form field "${shown(name)}" is not percent-encoded UTF-8.`);
  }
  const fields = new URLSearchParams(text);
  for (const name of fields.keys()) {
    if (fields.getAll(name).length > 1) throw new InvalidFormat(`The form field "${name}" is sent more than once.`);
  }
  // fromEntries defines own properties, so a field named __proto__ stays a field.
  return Object.fromEntries(fields);
}
