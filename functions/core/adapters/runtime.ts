import { config } from '#core/platform/config';
import { createDeps, type Deps } from '#core/ports/deps';

let deps: Deps | undefined;

/** The process's dependencies, made on first use so that importing a handler does no I/O. */
export const runtimeDeps = (): Deps => (deps ??= createDeps(config()));
