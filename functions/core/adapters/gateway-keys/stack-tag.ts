/**
 * The tag on every API key a stack makes (its shared and anonymous keys, and each
 * workspace's), valued with the stack's name: the key-managing roles may create a key only
 * with it and delete only keys that carry it (lib/constructs/tier-usage-plans.ts).
 */
export const stackTagKey = 'tenant-api:stack';
