import { config } from './config.ts';
import { createDeps, type Deps } from './deps.ts';

let deps: Deps | undefined;

/** The process's dependencies, made on first use so that importing a handler does no I/O. */
export const runtimeDeps = (): Deps => (deps ??= createDeps(config()));
