import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseEncoding, CONSOLE_CSP } from '../src/core/webAssets.js';
import { useServer } from './harness.js';

// A small build: index.html (no compressed copies: the server compresses it itself), a hashed script with
// .br and .gz, a hashed stylesheet with only .gz, an image and an unhashed file at the root.
const web = mkdtempSync(join(tmpdir(), 'console-web-'));
const links = Array.from({ length: 20 }, (_, i) => `    <link rel="modulepreload" crossorigin href="/assets/chunk-${i}-abc123.js">`).join('\n');
const INDEX = `<!doctype html>\n<html lang="zh-CN">\n  <head>\n    <script type="module" crossorigin src="/assets/app-abc123.js"></script>\n${links}\n  </head>\n  <body><div id="root"></div></body>\n</html>\n`;
const SCRIPT = `export const answer = ${JSON.stringify('console '.repeat(200))};\n`;
const STYLE = `${'.a { color: red; }\n'.repeat(100)}`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
mkdirSync(join(web, 'assets'));
writeFileSync(join(web, 'index.html'), INDEX);
writeFileSync(join(web, 'favicon.ico'), 'icon');
writeFileSync(join(web, 'assets/app-abc123.js'), SCRIPT);
writeFileSync(join(web, 'assets/app-abc123.js.gz'), gzipSync(SCRIPT));
writeFileSync(join(web, 'assets/app-abc123.js.br'), brotliCompressSync(SCRIPT));
writeFileSync(join(web, 'assets/style-def456.css'), STYLE);
writeFileSync(join(web, 'assets/style-def456.css.gz'), gzipSync(STYLE));
writeFileSync(join(web, 'assets/logo-0a1b2c.png'), PNG);

const h = useServer({ WEB_DIR: web });
afterAll(() => rmSync(web, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}) => h.server.app.inject({ method: 'GET', url, headers });

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe(CONSOLE_CSP);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

const varies = (headers: Record<string, unknown>) => String(headers.vary ?? '').toLowerCase().split(/\s*,\s*/).includes('accept-encoding');

describe('hashed files under /assets', () => {
  it('are sent brotli-compressed when accepted, cached for a year, with the security headers', async () => {
    const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript; charset=utf-8$/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res.headers)).toBe(true);
    expectSecurityHeaders(res.headers);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('are sent gzip-compressed to a client without brotli, and plain to one that accepts no encoding', async () => {
    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    expect(varies(gz.headers)).toBe(true);

    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }] as Record<string, string>[]) {
      const plain = await get('/assets/app-abc123.js', headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(SCRIPT);
      expect(varies(plain.headers)).toBe(true);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('fall back to the encoding there is, or to the plain file, when a compressed copy is missing', async () => {
    const gz = await get('/assets/style-def456.css', { 'accept-encoding': 'br, gzip' });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(STYLE);

    const plain = await get('/assets/style-def456.css', { 'accept-encoding': 'br' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(STYLE);
    expect(varies(plain.headers)).toBe(true);

    const png = await get('/assets/logo-0a1b2c.png', { 'accept-encoding': 'gzip, deflate, br' });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.equals(PNG)).toBe(true);
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(png.headers);
  });

  it('answer a conditional request for an unchanged file with 304', async () => {
    const first = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get('/assets/app-abc123.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('are not reachable under the names of their compressed copies', async () => {
    const res = await get('/assets/app-abc123.js.gz');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(INDEX);
  });
});

describe('unhashed files', () => {
  it('index.html and the favicon are revalidated on every use', async () => {
    for (const url of ['/index.html', '/favicon.ico']) {
      const res = await get(url, { 'accept-encoding': 'gzip, br' });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expectSecurityHeaders(res.headers);
    }
  });
});

describe('the console page for every other GET', () => {
  it('is index.html with 200, not cached without revalidation, with the security headers', async () => {
    for (const url of ['/', '/login', '/wel/index', '/myiframe/docs?src=https%3A%2F%2Fexample.com%2F', '/system/user/deep/path']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBeUndefined();
      expect(varies(res.headers), url).toBe(true);
      expectSecurityHeaders(res.headers);
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('is compressed as the client accepts (compressed at start when the build has no copy)', async () => {
    const br = await get('/wel/index', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);
    expect(br.rawPayload.length).toBeLessThan(INDEX.length);

    const gz = await get('/wel/index', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);
  });

  it('answers 304 to a client holding the current page', async () => {
    const first = await get('/login');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/login', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect((await get('/login', { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
  });

  it('is not given for API paths and other methods: they answer the 404 envelope', async () => {
    for (const [method, url] of [['GET', '/api/no-such-thing'], ['GET', '/sc/x'], ['GET', '/tc/y?z=1'], ['POST', '/wel/index'], ['DELETE', '/'], ['HEAD', '/login']] as const) {
      const res = await h.server.app.inject({ method, url, headers: { 'accept-language': 'en' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      if (method === 'HEAD') continue;
      expect(res.json(), `${method} ${url}`).toMatchObject({ code: 404, success: false, msg: `No such endpoint: ${method} ${url.split('?')[0]}` });
    }
  });
});

describe('the API documentation', () => {
  it('is still served at /api/docs', async () => {
    const json = await get('/api/docs/json');
    expect(json.statusCode).toBe(200);
    expect(json.json()).toHaveProperty('openapi');
    let res = await get('/api/docs');
    for (let i = 0; i < 3 && res.statusCode >= 300 && res.statusCode < 400; i++) {
      res = await get(new URL(String(res.headers.location), 'http://x/api/docs').pathname);
    }
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });
});

describe('chooseEncoding', () => {
  it('prefers brotli, honours weights and refusals, and reads * as any other encoding', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, deflate, br', ['gzip'])).toBe('gzip');
    expect(chooseEncoding('br', ['gzip'])).toBeNull();
    expect(chooseEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0.1, br;q=0')).toBe('gzip');
    expect(chooseEncoding('GZIP')).toBe('gzip');
  });
});
