// Bundles the server into dist/main.js. Dependencies stay in node_modules; the workspace contract
// (TypeScript source) is bundled in. Data files read at run time next to their module
// (new URL('./file', import.meta.url)) are copied beside dist/main.js, where that URL points in the bundle.
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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
// an area's data files (anything but code) land flat in dist/, so two of them may not share a name
const DATA_FILE = /\.(tsv|csv|xml|json)$/;
const assets = readdirSync(new URL('src/areas', import.meta.url), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && DATA_FILE.test(e.name))
  .map((e) => join(e.parentPath, e.name));
const names = new Set();
for (const asset of assets) {
  const name = basename(asset);
  if (names.has(name)) throw new Error(`two data files of the areas are called ${name}: dist/ holds them side by side`);
  names.add(name);
  copyFileSync(asset, new URL(`dist/${name}`, import.meta.url));
}
console.log(`server bundle: dist/main.js (+ ${assets.length} data file${assets.length === 1 ? '' : 's'})`);
