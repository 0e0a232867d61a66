// Writes a gzip (.gz) and a brotli (.br) copy beside every compressible file of the build (web/dist), for
// the server to send as they are (@fastify/static `preCompressed`) instead of compressing on each request.
// A copy that would not be smaller is not written: the server then sends the plain file.
// Usage: node scripts/precompress.mjs [dir]   (default: dist beside this script's folder)
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Text-like types; images, fonts (woff2) and archives are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map', '.xml', '.ico', '.webmanifest', '.wasm']);

const dir = process.argv[2] ?? fileURLToPath(new URL('../dist/', import.meta.url));

async function* files(folder) {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

async function compress(path) {
  const raw = await readFile(path);
  const text = extname(path) !== '.ico' && extname(path) !== '.wasm';
  const [gz, br] = await Promise.all([
    gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
    brotliAsync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
  ]);
  const sizes = { raw: raw.length, gz: raw.length, br: raw.length };
  for (const [ext, data] of [['.gz', gz], ['.br', br]]) {
    if (data.length < raw.length) {
      await writeFile(path + ext, data);
      sizes[ext.slice(1)] = data.length;
    } else {
      await rm(path + ext, { force: true });
    }
  }
  return sizes;
}

const todo = [];
for await (const path of files(dir)) {
  if (COMPRESSIBLE.has(extname(path).toLowerCase())) todo.push(path);
}
const total = { raw: 0, gz: 0, br: 0 };
// a few at a time: brotli at its best quality is CPU-bound
for (let i = 0; i < todo.length; i += 4) {
  for (const sizes of await Promise.all(todo.slice(i, i + 4).map(compress))) {
    total.raw += sizes.raw;
    total.gz += sizes.gz;
    total.br += sizes.br;
  }
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`precompressed ${todo.length} files in ${relative(process.cwd(), dir) || '.'}: ${kb(total.raw)} → gzip ${kb(total.gz)}, brotli ${kb(total.br)}`);
