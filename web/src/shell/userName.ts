import type { Lang } from '@console/contract';
import type { UserInfo } from '../store/session';

/**
 * How the console names the signed-in user (header, home greeting, lock screen): by the real name in
 * Chinese, by the nickname in English (the seeded administrators' real name is Chinese, their nickname
 * English); each falling back to the other, then to the account.
 */
export function displayName(user: Pick<UserInfo, 'real_name' | 'nick_name' | 'user_name' | 'account'> | null | undefined, lang: Lang): string {
  if (!user) return '';
  const [first, second] = lang === 'en' ? [user.nick_name, user.real_name] : [user.real_name, user.nick_name];
  return first?.trim() || second?.trim() || user.user_name || user.account || '';
}
