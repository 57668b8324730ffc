/**
 * Live and test data live apart (docs/decisions.md, Test mode): an API key's environment is the
 * environment of everything it reads and writes (keys, webhook endpoints, deliveries, usage).
 */
export const environments = ['live', 'test'] as const;
export type Environment = (typeof environments)[number];
