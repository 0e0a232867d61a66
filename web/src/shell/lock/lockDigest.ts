import { md5 } from 'js-md5';

/** What the lock store keeps of the lock password (never the password itself). */
export function lockDigest(password: string): string {
  return md5(`console-lock:${password}`);
}
