// Bundles the server into dist/main.js. Dependencies stay in node_modules; the workspace contract
// (TypeScript source) is bundled in. Data files read at run time next to their module
// (new URL('./file', import.meta.url)) are copied beside dist/main.js, where that URL points in the bundle.
import { copyFileSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@console/'));

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
const assets = ['src/areas/base/region/regions.tsv', 'src/areas/flow/leave.bpmn20.xml'];
for (const asset of assets) copyFileSync(new URL(asset, import.meta.url), new URL(`dist/${asset.split('/').pop()}`, import.meta.url));
console.log(`server bundle: dist/main.js (+ ${assets.length} data file${assets.length === 1 ? '' : 's'})`);
