import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/bundling.ts';
const name = process.argv[2] as any;
const r = await build({ ...esbuildOptions(name, `/tmp/x-${name}.mjs`), write: false, metafile: true });
const out = Object.values(r.metafile.outputs)[0]!;
const byPkg: Record<string, number> = {};
for (const [file, info] of Object.entries(out.inputs)) {
  const m = file.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  const key = m ? m[1]! : file.split('/').slice(0, 3).join('/');
  byPkg[key] = (byPkg[key] ?? 0) + info.bytesInOutput;
}
for (const [k, v] of Object.entries(byPkg).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(String(Math.round(v / 1024)).padStart(5), 'KiB', k);
