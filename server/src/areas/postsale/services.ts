import type { AuthUser } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { serviceKey } from '../../core/services.js';

/**
 * What else moves when a replacement lock takes an old one's place (a finished `replace` record): the cloud-storage
 * area moves the old lock's plan. Called inside the record's transaction; it throws to refuse the replacement.
 */
export interface LockReplacement {
  replaced(tx: Executor, user: AuthUser, fromSn: string, toSn: string): Promise<void>;
}

export const LOCK_REPLACEMENT = serviceKey<LockReplacement>('postsale.lockReplacement');
