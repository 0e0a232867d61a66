import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface StoredObject {
  size: number;
  sha256: string;
  /** firmware is published with both digests (devices and IoT clouds check MD5) */
  md5: string;
  /** the first bytes, for content sniffing */
  head: Buffer;
}

/**
 * Where uploaded bytes live. Local disk by default; an S3-compatible implementation plugs in here
 * when the OSS configuration feature lands. Keys are `tenant/yyyyMMdd/random.ext`.
 */
export interface FileStorage {
  /** Streams `body` to `key` with bounded memory; the object appears only once complete. */
  put(key: string, body: Readable): Promise<StoredObject>;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9A-Za-z_-]{1,32}\/\d{8}\/[0-9a-f]{32}\.[0-9a-z]{1,8}$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

export function newStorageKey(tenantId: string, extension: string, now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  return `${tenantId}/${day}/${randomBytes(16).toString('hex')}.${extension}`;
}

/** Hashes and measures what flows through, keeping the first `headBytes`. */
function meter(headBytes: number) {
  const hash = createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  let head = Buffer.alloc(0);
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      md5.update(chunk);
      size += chunk.length;
      if (head.length < headBytes) head = Buffer.concat([head, chunk.subarray(0, headBytes - head.length)]);
      done(null, chunk);
    },
  });
  return { stream, result: (): StoredObject => ({ size, sha256: hash.digest('hex'), md5: md5.digest('hex'), head }) };
}

export function localDiskStorage(root: string): FileStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`bad storage key ${key}`);
    const p = resolve(base, key);
    if (!p.startsWith(base + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return p;
  };
  return {
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const partial = `${target}.part-${randomBytes(4).toString('hex')}`;
      const m = meter(64);
      try {
        await pipeline(body, m.stream, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (e) {
        await rm(partial, { force: true });
        throw e;
      }
      return m.result();
    },
    async open(key) {
      if (!isStorageKey(key)) return null;
      const p = pathOf(key);
      try {
        const s = await stat(p);
        if (!s.isFile()) return null;
        return { stream: createReadStream(p), size: s.size };
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

export function defaultStorage(dataDir: string): FileStorage {
  return localDiskStorage(join(dataDir, 'files'));
}
