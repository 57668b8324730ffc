import * as z from 'zod/mini';
import { eventTypeNames } from '#core/events/event-types';
import { eventCatalogueTable } from '#lib/docs/event-catalogue';
import { generatedSection } from '#lib/docs/generated-section';
import { eventDataSchemas, eventEnvelope, typedEnvelopes } from '../../functions/event-payloads.ts';
import { openapiDocument } from '../support/openapi-document.ts';

describe('the event catalogue', () => {
  it('gives every type a named payload schema and an envelope', () => {
    const missing = eventTypeNames.filter(
      (type) => !eventDataSchemas[type] || !z.globalRegistry.get(eventDataSchemas[type])?.id || !typedEnvelopes[type],
    );
    expect(missing).toEqual([]);
    expect(Object.keys(eventDataSchemas).sort()).toEqual([...eventTypeNames].sort());
  });

  it('accepts an envelope of each type only with its own type and data', () => {
    const envelope = {
      id: 'evt_01JD5M6Z9V4X2K8Q3R7T1W0Y5N',
      type: 'user.updated',
      created_at: '2026-11-23T09:12:00.000Z',
      workspace_id: 'wks_01JD5M2A7C8E9F0G1H2J3K4M5N',
      data: { id: 7, name: 'Ada', email: 'ada@example.com', tier: 'free', email_verified_at: null, created_at: '2026-11-23T09:12:00.000Z' },
    };
    expect(typedEnvelopes['user.updated'].safeParse(envelope).success).toBe(true);
    expect(eventEnvelope.safeParse(envelope).success).toBe(true);
    expect(typedEnvelopes['member.added'].safeParse(envelope).success).toBe(false);
    expect(typedEnvelopes['user.updated'].safeParse({ ...envelope, data: { id: 7 } }).success).toBe(false);
    expect(eventEnvelope.safeParse({ ...envelope, type: 'user.exploded' }).success).toBe(false);
  });

  it('is openapi.yaml’s webhooks, one POST per type with its envelope and the signature headers', () => {
    const document = openapiDocument();
    expect(Object.keys(document.webhooks)).toEqual(eventTypeNames);
    for (const type of eventTypeNames) {
      const { post } = document.webhooks[type];
      const ref: string = post.requestBody.content['application/json'].schema.$ref;
      const envelope = document.components.schemas[ref.split('/').pop()!];
      expect(envelope.properties.type.const).toBe(type);
      expect(envelope.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'workspace_id', 'data']));
      const headers = post.parameters.map((p: { $ref: string }) => document.components.parameters[p.$ref.split('/').pop()!].name);
      expect(headers).toEqual([
        'X-Webhook-Id',
        'X-Webhook-Event',
        'X-Webhook-Timestamp',
        'X-Webhook-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
  });

  it('is docs/webhooks.md’s table, word for word (npm run docs rewrites it)', () => {
    expect(generatedSection('docs/webhooks.md', 'event-catalogue')).toBe(eventCatalogueTable());
  });
});
