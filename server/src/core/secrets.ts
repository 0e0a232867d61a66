import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (SMS and OSS keys, …): AES-256-GCM under the server's ENCRYPTION_KEY (config.encryptionKey).
 * A stored value is `v1:<iv>:<tag>:<ciphertext>`, each part base64url; the 12-byte IV is random per value
 * and the tag authenticates it, so a changed or foreign value fails to decrypt rather than answering junk.
 */
const PREFIX = 'v1:';

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX) && value.split(':').length === 4;
}

/** IVs are cut from a pool of random bytes: one call for 1,024 of them (an import seals 100,000 secrets) */
let ivPool = Buffer.alloc(0);
function freshIv(): Buffer {
  if (ivPool.length < 12) ivPool = randomBytes(12 * 1024);
  const iv = ivPool.subarray(0, 12);
  ivPool = ivPool.subarray(12);
  return iv;
}

export function seal(key: Buffer, plain: string): string {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${body.toString('base64url')}`;
}

export function unseal(key: Buffer, stored: string): string {
  if (!isSealed(stored)) throw new Error('not a sealed secret');
  const [, iv, tag, body] = stored.split(':') as [string, string, string, string];
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Sealing with one key: what modules hold (`secretBox(ctx.config.encryptionKey)`). */
export interface SecretBox {
  seal(plain: string): string;
  /** the plain text of a stored value; null for an empty one */
  open(stored: string | null | undefined): string | null;
}

export function secretBox(key: Buffer): SecretBox {
  return {
    seal: (plain) => seal(key, plain),
    open: (stored) => (stored ? unseal(key, stored) : null),
  };
}
