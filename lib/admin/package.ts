import { featureNames } from '#core/entitlements/features';
import { grantPackageBody, namespaceId, packageId } from '#core/namespaces/namespace-schemas';
import { grantPackage, revokePackage } from '#core/namespaces/packages';
import { type Command, idOption, parseOptions, required, UsageError } from './command.ts';

/** `--entitlement api_calls=100000`, repeated: the amounts by feature, as the API's body takes them. */
function entitlementsOf(values: string[]): Record<string, number> {
  if (!values.length) throw new UsageError('--entitlement is required (feature=amount, repeatable)');
  const entitlements: Record<string, number> = {};
  for (const value of values) {
    const match = /^([a-z_]+)=(\d+)$/.exec(value);
    if (!match) throw new UsageError(`--entitlement ${value}: write feature=amount, e.g. api_calls=100000`);
    if (match[1]! in entitlements) throw new UsageError(`--entitlement names ${match[1]} twice`);
    entitlements[match[1]!] = Number(match[2]);
  }
  return entitlements;
}

export const grantPackageCommand: Command = {
  name: 'package grant',
  summary: 'grant a package of extra entitlements to a namespace (its limits rise at once), until --expires-at if given',
  options: [
    "  --namespace <id>       required: ns_…, the namespace (a workspace's default namespace is ns_ + its ULID)",
    '  --name <name>          required: what the package is called',
    `  --entitlement <f=n>    required, repeatable: an amount to add to a feature (${featureNames.join(', ')})`,
    '  --expires-at <time>    ISO 8601 with a zone, in the future; absent: never expires',
  ],
  async run(args, { open, print }) {
    const options = parseOptions(args, {
      namespace: { type: 'string' },
      name: { type: 'string' },
      entitlement: { type: 'string', multiple: true },
      'expires-at': { type: 'string' },
    });
    const namespace = idOption(namespaceId, required(options.namespace, 'namespace'), 'namespace');
    const parsed = grantPackageBody.safeParse({
      name: required(options.name, 'name'),
      entitlements: entitlementsOf(options.entitlement ?? []),
      ...(options['expires-at'] !== undefined ? { expires_at: options['expires-at'] } : {}),
    });
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => {
        const [field, key] = issue.path.map(String);
        const option = field === 'entitlements' ? `--entitlement ${key ?? ''}`.trim() : `--${field?.replace('_', '-')}`;
        return `${option}: ${issue.code === 'unrecognized_keys' ? `unknown feature ${issue.keys.join(', ')}; features are ${featureNames.join(', ')}` : issue.message}`;
      });
      throw new UsageError(problems.join('; '));
    }
    const { name, entitlements, expires_at } = parsed.data;
    const deps = await open(options.stack);
    const granted = await grantPackage(deps, namespace, { name, entitlements, expiresAt: expires_at ?? undefined });
    const amounts = Object.entries(granted.entitlements)
      .map(([feature, amount]) => `${feature} +${amount}`)
      .join(', ');
    print(
      `Package ${granted.id} (${granted.name}) granted to ${namespace}: ${amounts}; ${granted.expires_at ? `until ${granted.expires_at}` : 'no expiry'}.`,
    );
  },
};

export const revokePackageCommand: Command = {
  name: 'package revoke',
  summary: "revoke a namespace's package at once",
  options: ['  --namespace <id>       required: ns_…, the namespace', '  --package <id>         required: pkg_…, the package'],
  async run(args, { open, print }) {
    const options = parseOptions(args, { namespace: { type: 'string' }, package: { type: 'string' } });
    const namespace = idOption(namespaceId, required(options.namespace, 'namespace'), 'namespace');
    const grant = idOption(packageId, required(options.package, 'package'), 'package');
    await revokePackage(await open(options.stack), namespace, grant);
    print(`Package ${grant} of ${namespace} revoked.`);
  },
};
