import { config } from '#core/platform/config';
import { type Deps } from '#core/ports/deps';
import { createDeps } from './create-deps.ts';

let deps: Deps | undefined;

/** The process's dependencies, made on first use so that importing a handler does no I/O. */
export const runtimeDeps = (): Deps => (deps ??= createDeps(config()));
