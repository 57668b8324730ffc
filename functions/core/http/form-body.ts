import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidFormat } from '../errors.ts';
import { headerValue } from './envelope-middleware.ts';

const formMediaType = 'application/x-www-form-urlencoded';

/**
 * The fields of an application/x-www-form-urlencoded body. A field sent twice is refused:
 * which value counts would be a guess, and OAuth forbids it (RFC 6749 section 3.2).
 */
export function formFields(event: APIGatewayProxyEvent & { body: string }): Record<string, string> {
  const mediaType = headerValue(event, 'content-type')?.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== formMediaType) throw new InvalidFormat(`Send the body as ${formMediaType}.`);
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const fields = new URLSearchParams(text);
  for (const name of fields.keys()) {
    if (fields.getAll(name).length > 1) throw new InvalidFormat(`The form field "${name}" is sent more than once.`);
  }
  // fromEntries defines own properties, so a field named __proto__ stays a field.
  return Object.fromEntries(fields);
}
