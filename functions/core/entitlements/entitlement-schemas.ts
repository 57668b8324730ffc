import * as z from 'zod/mini';
import { timestamp } from '#core/platform/common-schemas';
import { describe, onTheWire, withMeta } from '#core/platform/schema-meta';
import { tierNames } from '#core/platform/tiers';
import { countsIn, type Feature, featureNames } from './features.ts';

const feature = describe(z.enum(featureNames), 'A metered feature (README, Entitlements).');

/** The largest quantity asked or recorded: 10^15, room for bytes of storage, exact as a JSON number. */
const maxQuantity = 1e15;

/** In a query: digits only, up to 10^15. */
const quantityText = onTheWire(
  z.pipe(
    z._default(
      z.string().check(z.regex(/^(?:[1-9][0-9]{0,14}|1000000000000000)$/, 'must be a whole number from 1 to 1000000000000000')),
      '1',
    ),
    z.transform(Number),
  ),
  { type: 'integer', minimum: 1, maximum: maxQuantity, default: 1 },
);

export const checkQuery = z.strictObject({
  feature,
  quantity: describe(quantityText, 'How much more is wanted; 1 when omitted.'),
  workspace_id: z.optional(z.string()),
  namespace_id: z.optional(z.string()),
});

export const checkBody = z.strictObject({
  feature,
  quantity: describe(z._default(z.int().check(z.gte(1), z.lte(maxQuantity)), 1), 'How much more is wanted; 1 when omitted.'),
});

/** Bytes of storage can be large; any safe integer but 0, negative only to release storage. */
const usageQuantity = z.int().check(
  z.gte(-maxQuantity),
  z.lte(maxQuantity),
  z.refine((n) => n !== 0, 'must not be 0'),
);

const metadataBytes = 4096;

/** Bytes as JSON (a body nests at most http/strict-json.ts's depth, so it always serialises). */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

export const usageBody = z.strictObject({
  feature: describe(feature, 'A feature clients report: storage. The service counts the others itself (mcp_calls with each tool call).'),
  quantity: describe(usageQuantity, 'How much was used. Negative only for storage, to release what was freed.'),
  metadata: describe(
    z.optional(
      z
        .record(z.string(), z.unknown())
        .check(z.refine((value) => jsonBytes(value) <= metadataBytes, `must be at most ${metadataBytes} bytes as JSON`)),
    ),
    `Anything to keep with the record, echoed in the answer; at most ${metadataBytes / 1024} KiB as JSON.`,
  ),
});

const limitField = describe(z.nullable(z.int()), 'The limit: the tier plus packages in force; null when unlimited.');
const availableField = describe(z.nullable(z.int()), 'What is left; null when unlimited.');
const unit = describe(z.string(), 'What the feature counts: requests, bytes, keys ...');
const resetAt = describe(z.optional(timestamp), 'Monthly features only: when the count resets (the next month, UTC).');

export const checkResult = withMeta(
  z.object({
    allowed: z.boolean(),
    feature,
    reason: describe(z.optional(z.literal('LIMIT_EXCEEDED')), 'Present when denied.'),
    message: z.string(),
    current_usage: z.int(),
    limit: limitField,
    available: availableField,
    unit,
    reset_at: resetAt,
    upgrade_url: describe(z.optional(z.url()), 'Present when denied: where to buy more.'),
  }),
  { id: 'EntitlementCheck', description: 'Whether a quantity more of a feature is within the limit.' },
);

export const standing = withMeta(
  z.object({
    used: z.int(),
    limit: limitField,
    available: availableField,
    percentage: describe(z.number(), 'used / limit in percent, two decimals; 0 when unlimited.'),
    unit,
    reset_at: resetAt,
  }),
  { id: 'EntitlementStanding' },
);

/** A feature that only some namespaces count (workspaces: a user's own) is absent elsewhere. */
const standingOf = (name: Feature) =>
  countsIn(name, 'Workspace') && countsIn(name, 'User')
    ? standing
    : describe(z.optional(standing), `Only in namespaces that count ${name} (a user's own).`);

export const standings = withMeta(
  z.object(Object.fromEntries(featureNames.map((name) => [name, standingOf(name)])) as Record<Feature, typeof standing>),
  { id: 'EntitlementStandings', description: 'Every metered feature the namespace counts, by name.' },
);

export const entitlementSummary = withMeta(
  z.object({
    workspace_id: z.string(),
    namespace_id: z.string(),
    environment: z.enum(['live', 'test']),
    tier: z.enum(tierNames),
    entitlements: standings,
  }),
  { id: 'EntitlementSummary', description: 'Every feature of the namespace: used, limit, available.' },
);

export const usageRecorded = withMeta(
  z.object({
    recorded: describe(z.boolean(), 'False when the quantity would pass the limit: nothing was counted.'),
    feature,
    quantity: z.int(),
    current_usage: describe(z.int(), 'After this record (unchanged when not recorded).'),
    limit: limitField,
    available: availableField,
    unit,
    reset_at: resetAt,
    reason: describe(z.optional(z.literal('LIMIT_EXCEEDED')), 'Present when not recorded.'),
    message: z.string(),
    upgrade_url: z.optional(z.url()),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }),
  { id: 'UsageRecorded' },
);

export const usageReport = withMeta(
  z.object({
    workspace_id: z.string(),
    environment: z.enum(['live', 'test']),
    period: z.object({ start: timestamp, end: describe(timestamp, 'When the period ends and monthly counts reset.') }),
    api_calls: z.object({
      total: z.int(),
      limit: limitField,
      by_day: z.array(z.object({ date: describe(z.iso.date(), 'A day of the period, UTC.'), count: z.int() })),
      by_key: describe(
        z.array(z.object({ key_id: z.nullable(z.string()), user_id: z.nullable(z.int()), count: z.int() })),
        "Per API key (key_id); a user's sessions, user tokens and OAuth tokens together (user_id). Most first.",
      ),
    }),
    features: standings,
  }),
  { id: 'UsageReport', description: "The current month's usage of the workspace, in the credential's environment." },
);
