import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id parameters, pinned so that hashes stay comparable across library upgrades (OWASP minimum). */
const PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const MD5_HEX = /^[0-9a-f]{32}$/;

/** The console sends the hex MD5 of what the user typed; only that form is accepted. */
export function isMd5Hex(v: string): boolean {
  return MD5_HEX.test(v);
}

export function md5Hex(plain: string): string {
  return createHash('md5').update(plain, 'utf8').digest('hex');
}

export function hashPassword(md5: string): Promise<string> {
  return hash(md5.toLowerCase(), PARAMS);
}

export async function verifyPassword(stored: string, md5: string): Promise<boolean> {
  try {
    return await verify(stored, md5.toLowerCase());
  } catch {
    return false;
  }
}

/** A real hash verified against when the account does not exist, so timing does not reveal accounts. */
let decoy: string | undefined;
export async function verifyDecoy(md5: string): Promise<false> {
  decoy ??= await hashPassword(md5Hex('decoy-password'));
  await verifyPassword(decoy, md5);
  return false;
}

export function sha256Hex(v: string): string {
  return createHash('sha256').update(v, 'utf8').digest('hex');
}
