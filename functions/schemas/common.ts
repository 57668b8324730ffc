import { z } from 'zod';

export const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');

export const errorEnvelope = z
  .object({
    error: z.string().describe('lowercase code, e.g. validation_failed'),
    error_code: z.string().describe('uppercase code, e.g. VALIDATION_FAILED'),
    message: z.string(),
    request_id: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    required_scope: z.string().optional(),
    provided_scopes: z.array(z.string()).optional(),
    resource_type: z.string().optional(),
    resource_id: z.string().optional(),
    requested_path: z.string().optional(),
    conflicting_field: z.string().optional(),
    meta: z.looseObject({ request_id: z.string(), timestamp }),
  })
  .loose()
  .meta({ id: 'Error', description: 'The error envelope every 4xx and 5xx answers with.' });

export const listMeta = z
  .object({
    current_page: z.int().min(1),
    per_page: z.int().min(1).max(100),
    total: z.int().min(0),
    last_page: z.int().min(1),
    from: z.int().nullable(),
    to: z.int().nullable(),
  })
  .meta({ id: 'ListMeta' });

export const listLinks = z
  .object({ first: z.url(), last: z.url(), prev: z.url().nullable(), next: z.url().nullable() })
  .meta({ id: 'ListLinks' });

export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: listMeta, links: listLinks });

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const createdOf = <T extends z.ZodType>(item: T) => z.object({ message: z.string(), data: item });

/** `name` of workspaces and keys: the spec's 255-character bound, blank names refused. */
export const resourceName = z.string().trim().min(1, 'must not be blank').max(255, 'must be at most 255 characters');
