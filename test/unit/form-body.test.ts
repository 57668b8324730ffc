import type { APIGatewayProxyEvent } from 'aws-lambda';
import { formFields } from '#core/http/form-body';
import { errorOf } from '../support/errors.ts';

const formEvent = (body: string, contentType = 'application/x-www-form-urlencoded; charset=utf-8', isBase64Encoded = false) =>
  ({ body, isBase64Encoded, headers: { 'Content-Type': contentType } }) as unknown as APIGatewayProxyEvent & { body: string };

const refusal = (event: APIGatewayProxyEvent & { body: string }) => errorOf((async () => formFields(event))());

describe('form bodies', () => {
  it('reads the fields of an application/x-www-form-urlencoded body, decoded, base64 or not', () => {
    const body = 'grant_type=client_credentials&scope=workspaces%3Aread+api-keys%3Aread';
    const expected = { grant_type: 'client_credentials', scope: 'workspaces:read api-keys:read' };
    expect(formFields(formEvent(body))).toEqual(expected);
    expect(formFields(formEvent(Buffer.from(body).toString('base64'), undefined, true))).toEqual(expected);
  });

  it('refuses another media type and a field sent twice with 400 INVALID_FORMAT', async () => {
    const json = await refusal(formEvent('{"grant_type":"client_credentials"}', 'application/json'));
    expect([json.status, json.errorCode]).toEqual([400, 'INVALID_FORMAT']);
    const twice = await refusal(formEvent('scope=a&scope=b'));
    expect(twice.message).toContain('"scope"');
  });

  it('refuses bytes that are not UTF-8, sent raw or percent-encoded, naming the field; a "%" without two hex digits is itself', async () => {
    const raw = await refusal(formEvent(Buffer.from([0x61, 0x3d, 0xff]).toString('base64'), undefined, true));
    expect([raw.status, raw.errorCode, raw.message]).toEqual([400, 'INVALID_FORMAT', 'The body is not valid UTF-8.']);
    for (const body of ['scope=a&state=%FF', 'state=%C3%28', 'state=%ED%A0%80', 'state=%E2%82']) {
      const encoded = await refusal(formEvent(body));
      expect([encoded.errorCode, encoded.message]).toEqual(['INVALID_FORMAT', 'The form field "state" is not percent-encoded UTF-8.']);
    }
    expect(formFields(formEvent('state=100%&note=%zz+caf%C3%A9'))).toEqual({ state: '100%', note: '%zz café' });
  });

  it('keeps a field named __proto__ a field', () => {
    const fields = formFields(formEvent('__proto__=x'));
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__']);
  });
});
