import { config } from '#core/platform/config';
import type { Deps } from '#core/ports/deps';
import { createDeps } from './create-deps.ts';
import type { FunctionDefinition, PortAdapters, PortName } from './function-definition.ts';

/**
 * A Lambda's dependencies: the table and clock of its configuration, and each port its
 * definition declares from the adapter its index.ts gives, built on first use so that
 * importing a handler does no I/O.
 */
export function lambdaDeps<P extends PortName>(definition: FunctionDefinition<P>, adapters: PortAdapters<P>): () => Deps {
  let deps: Deps | undefined;
  return () => (deps ??= Object.assign(createDeps(config()), ...definition.ports.map((port) => ({ [port]: adapters[port]() }))));
}
