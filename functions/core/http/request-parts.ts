import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidFormat, PayloadTooLarge } from '#core/platform/errors';
import type { CallParameters } from './dispatch.ts';
import { formFields } from './form-body.ts';
import { maxBodyBytes } from './http-answer.ts';
import { headerValue, lowerCaseHeaders } from './proxy-event.ts';
import { singleValuedQuery } from './query.ts';
import type { RouteSpec } from './route-types.ts';
import { assertStrictJson } from './strict-json.ts';
import { assertUnicodeParameters, bodyBytes, bodyText } from './unicode-text.ts';

/** application/json, or a `+json` type (RFC 6839), with parameters or without. */
const jsonMediaType = /^application\/(.+\+)?json($|;.+)/;
/** What `navigator.sendBeacon` sends a string as (and a fetch without a Content-Type). */
const beaconMediaType = /^(text\/plain($|;.+)|$)/;

/** Whether the body's media type is one the route reads as JSON (media types are case-insensitive). */
function isJsonFor(route: RouteSpec, contentType: string): boolean {
  return jsonMediaType.test(contentType) || (route.bodyFormat === 'beacon' && beaconMediaType.test(contentType));
}

type EventWithBody = APIGatewayProxyEvent & { body: string };

/** Refuses a body past the limit before anything reads it. */
export function assertBodySize(event: APIGatewayProxyEvent): void {
  if (event.body && bodyBytes(event as EventWithBody) > maxBodyBytes) throw new PayloadTooLarge(maxBodyBytes);
}

/**
 * The body as its route takes it: JSON, or form fields for a route that takes a form;
 * either must be UTF-8, and JSON strict (strict-json.ts). No body at all is undefined, so a
 * bare POST (rotate, test) needs none and a missing field is named as such.
 */
export function bodyOf(route: RouteSpec, event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === '') return undefined;
  if (route.bodyFormat === 'form') return formFields(event as EventWithBody);
  const text = bodyText(event as EventWithBody);
  if (!isJsonFor(route, headerValue(event, 'content-type')?.toLowerCase() ?? '')) {
    throw new InvalidFormat(
      route.bodyFormat === 'beacon'
        ? 'Send the body as JSON with Content-Type: application/json or text/plain.'
        : 'Send the body as JSON with Content-Type: application/json.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InvalidFormat(`The body is not valid JSON: ${(error as Error).message}`);
  }
  assertStrictJson(text);
  return parsed;
}

/** Path parameters, query and headers as dispatch takes them, once each is known to be text and given once. */
export function parametersOf(event: APIGatewayProxyEvent): CallParameters {
  assertUnicodeParameters(event);
  return {
    params: (event.pathParameters ?? {}) as Record<string, string>,
    query: singleValuedQuery(event),
    headers: lowerCaseHeaders(event),
  };
}
