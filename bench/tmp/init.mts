import { measureBundles } from '../bundles.ts';
const figures = await measureBundles(5);
for (const f of figures) console.log(f.name.padEnd(12), (f.bytes/1024).toFixed(0).padStart(5), 'KiB', f.initMedianMs.toFixed(0).padStart(5), 'ms', JSON.stringify(f.initRunsMs.map(Math.round)));
