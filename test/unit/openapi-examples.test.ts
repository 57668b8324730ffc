import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openapiDocument } from '../support/openapi-document.ts';

/**
 * Every example of openapi.yaml (requests, success answers, path parameters, webhook
 * deliveries) is checked against the schema it illustrates, as a client generated from the
 * document would read it: an example that does not match teaches the wrong thing.
 */
const document = openapiDocument();
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(document, 'openapi.yaml');

const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

interface Exampled {
  at: string[];
  example: unknown;
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: { in?: string; name?: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

const operationsOf = (section: 'paths' | 'webhooks') =>
  Object.entries(document[section] as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'servers')
      .map(([method, operation]) => ({ at: [section, path, method], operation })),
  );

const operations = [...operationsOf('paths'), ...operationsOf('webhooks')];

function examplesOf({ at, operation }: (typeof operations)[number]): Exampled[] {
  const found: Exampled[] = [];
  operation.parameters?.forEach((parameter, index) => {
    if ('example' in parameter) found.push({ at: [...at, 'parameters', String(index), 'schema'], example: parameter.example });
  });
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
    if ('example' in media) found.push({ at: [...at, 'requestBody', 'content', type, 'schema'], example: media.example });
  }
  for (const [status, response] of Object.entries(operation.responses)) {
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if ('example' in media) found.push({ at: [...at, 'responses', status, 'content', type, 'schema'], example: media.example });
    }
  }
  return found;
}

const jsonBody = (media: Record<string, unknown> | undefined) =>
  media?.['application/json'] ?? media?.['application/x-www-form-urlencoded'];

describe('the examples of openapi.yaml', () => {
  it('each match the schema beside them', () => {
    const mismatches = operations.flatMap(examplesOf).flatMap(({ at, example }) => {
      const validate = ajv.compile({ $ref: `openapi.yaml#/${pointer(...at)}` });
      return validate(example) ? [] : [`${at.join(' ')}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(mismatches).toEqual([]);
  });

  it('cover every operation: a summary, a description, a request example with a body and a success example with a JSON answer', () => {
    const missing = operations.flatMap(({ at, operation }) => {
      const name = at.slice(1).join(' ');
      const gaps: string[] = [];
      if (!operation.summary) gaps.push(`${name}: no summary`);
      if (!operation.description) gaps.push(`${name}: no description`);
      const body = jsonBody(operation.requestBody?.content);
      if (body && !('example' in (body as object))) gaps.push(`${name}: no request example`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const answer = jsonBody(response.content);
        if (status.startsWith('2') && answer && !('example' in (answer as object))) gaps.push(`${name} ${status}: no example`);
      }
      return gaps;
    });
    expect(missing).toEqual([]);
  });

  it('give ids as their prefix and a 26-character ULID', () => {
    const workspaces = document.paths['/workspaces'].get.responses['200'].content['application/json'].example;
    expect(workspaces.data[0].id).toMatch(/^wks_[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
