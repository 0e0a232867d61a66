import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { msg } from '@console/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isApiPath } from './access.js';
import { failure } from './envelope.js';

/**
 * The console's Content-Security-Policy. Scripts only from this origin (the build has no inline script);
 * styles also inline, because antd writes its CSS-in-JS into <style> tags; images and frames from any
 * http(s) address (avatars, embedded pages of the menu); the page itself may be framed only by this origin.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' http: https:",
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Sent with the console page and every file of the build. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Vite's content-hashed files: a changed file gets a new name, so they never need revalidating. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and unhashed files (favicon): revalidated on every use (ETag / Last-Modified). */
export const REVALIDATE = 'no-cache';
const HASHED_FOLDER = 'assets';

export type Encoding = 'br' | 'gzip';

/**
 * The best of the offered encodings the client accepts (brotli before gzip at equal weight), or null for
 * the plain file. `*` stands for any encoding the header does not name; `q=0` refuses one.
 */
export function chooseEncoding(acceptEncoding: string | undefined, offered: readonly Encoding[] = ['br', 'gzip']): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const enc of offered) {
    const weight = weights.get(enc) ?? weights.get('*') ?? 0;
    if (weight > bestWeight) {
      best = enc;
      bestWeight = weight;
    }
  }
  return best;
}

interface IndexPage {
  etag: string;
  bodies: { identity: Buffer } & Partial<Record<Encoding, Buffer>>;
}

/** index.html with its compressed forms: the build's .br/.gz beside it, else compressed here once. */
function loadIndex(webDir: string): IndexPage | null {
  const file = join(webDir, 'index.html');
  if (!existsSync(file)) return null;
  const identity = readFileSync(file);
  const read = (ext: string) => (existsSync(file + ext) ? readFileSync(file + ext) : undefined);
  const br = read('.br') ?? brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } });
  const gzip = read('.gz') ?? gzipSync(identity, { level: constants.Z_BEST_COMPRESSION });
  const bodies: IndexPage['bodies'] = { identity };
  if (br.length < identity.length) bodies.br = br;
  if (gzip.length < identity.length) bodies.gzip = gzip;
  // weak: the same page whichever encoding carries it
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { etag, bodies };
}

function setSecurityHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
}

/**
 * Serves the built console (webDir, from `vite build` + scripts/precompress.mjs) at `/`: its files with
 * their precompressed .br/.gz forms as the client accepts them (the plain file where there is none),
 * hashed files cached for a year, and index.html for every other GET outside the API (the console is a
 * single-page app and routes in the browser). Unknown API paths and other methods answer the 404 envelope.
 */
export async function registerWebAssets(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  const index = webDir ? loadIndex(webDir) : null;
  if (webDir && index) {
    const root = resolve(webDir);
    await app.register(fastifyStatic, {
      root,
      // one route per file of the build, found at start; the compressed copies are not routes of their own
      wildcard: false,
      globIgnore: ['**/*.gz', '**/*.br'],
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, path) {
        setSecurityHeaders(reply);
        const hashed = relative(root, path).split(sep)[0] === HASHED_FOLDER;
        reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE);
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const lang = req.lang ?? 'zh';
    const path = req.url.split('?')[0] ?? '';
    if (isApiPath(path) || req.method !== 'GET' || !index) {
      return reply.code(404).send(failure(404, msg('routeNotFound', lang, { method: req.method, url: path })));
    }
    // The console is a single-page app: every other GET gets index.html and the client routes it.
    setSecurityHeaders(reply);
    reply.header('cache-control', REVALIDATE).header('vary', 'accept-encoding').header('etag', index.etag);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === index.etag || t.trim() === '*')) {
      return reply.code(304).send();
    }
    const offered = (['br', 'gzip'] as const).filter((e) => index.bodies[e]);
    const encoding = chooseEncoding(req.headers['accept-encoding'], offered);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.code(200).type('text/html; charset=utf-8').send(index.bodies[encoding ?? 'identity']);
  });
}
