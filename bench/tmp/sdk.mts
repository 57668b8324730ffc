import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling.ts';
for (const name of ['workspaces', 'authorizer'] as const) {
  const o = esbuildOptions(name, `/tmp/sdk-${name}/index.mjs`);
  const r = await build({ ...o, external: [], metafile: true });
  const out = Object.values(r.metafile.outputs)[0]!;
  console.log(name, Math.round(out.bytes / 1024), 'KiB');
}
