import { readFileSync } from 'node:fs';
import { configAreas, deploySettings } from '#lib/deploy-config';
import { markdownTable } from './markdown-table.ts';

const areaNames: Record<(typeof configAreas)[number], string> = {
  stage: 'stack and stage',
  domain: 'custom domain',
  features: 'features',
  tiers: 'tiers',
  mail: 'mail',
  versioning: 'versioning',
  webhooks: 'webhooks',
  edge: 'edge',
  alarms: 'alarms',
  logs: 'logs',
  data: 'data',
};

/** The context cdk.json sets, which `cdk synth` and `cdk deploy` start from. */
const cdkJsonContext = (): Record<string, unknown> => JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

/** A key's default as an operator would write it: cdk.json's value, else the schema's own. */
function defaultOf(key: keyof typeof deploySettings): string {
  const inCdkJson = cdkJsonContext()[key];
  const parsed = deploySettings[key].schema.safeParse(inCdkJson);
  if (!parsed.success) return 'required';
  const value: unknown = parsed.data;
  if (value === undefined || value === '') return 'unset';
  const shown = Array.isArray(value) ? value.join(',') : String(value);
  return inCdkJson === undefined ? `\`${shown}\`` : `\`${shown}\` (cdk.json)`;
}

/**
 * The table of every deployment setting in docs/operations.md (Deploying), from
 * lib/deploy-config.ts, so that the guide names each key the app reads, with its default
 * (test/unit/configuration-table.test.ts compares them).
 */
export function configurationTable(): string {
  const keys = Object.keys(deploySettings) as (keyof typeof deploySettings)[];
  const rows = configAreas.flatMap((area) =>
    keys
      .filter((key) => deploySettings[key].area === area)
      .map((key) => [areaNames[area], `\`${key}\``, deploySettings[key].meaning, defaultOf(key)]),
  );
  return markdownTable(['area', 'context key', 'what it sets', 'default'], rows);
}
