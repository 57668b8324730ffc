import type { Deps } from '#core/ports/deps';

/**
 * Dependencies for an HTTP handler under a unit test, whose operations touch no table: the
 * one read every request makes, the maintenance switch (operations/maintenance.ts), finds it off.
 */
export const storelessDeps = (): Deps =>
  ({
    db: {
      table: { name: 'storeless' },
      entities: { maintenance: { get: () => ({ go: async () => ({ data: null }) }) } },
    },
  }) as unknown as Deps;
