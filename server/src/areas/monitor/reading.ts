import { type MessageRef, msgOf } from '@console/contract';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../core/context.js';
import type { Tx } from '../../core/db/index.js';
import type { ResourceHooks } from '../../core/resource/engine.js';
import type { DictSeed } from '../../seed/steps.js';

/** The usual log's event: its kept message in the reader's language (rows without one keep their text). */
export const usualLogHooks = (): ResourceHooks => ({
  shownReads: ['message'],
  async shown(_tx, rows, _user, lang) {
    for (const row of rows) {
      const message = row.message as MessageRef | null | undefined;
      if (message && typeof message === 'object' && typeof message.key === 'string') row.logData = msgOf(message, lang);
    }
  },
});

/** The API log's title: its route's title in the reader's language (a route this build no longer has keeps the stored one). */
export const apiLogHooks = (ctx: AppContext): ResourceHooks => ({
  shownReads: ['method', 'methodClass'],
  async shown(_tx, rows, _user, lang) {
    for (const row of rows) {
      if (typeof row.method !== 'string' || typeof row.methodClass !== 'string') continue;
      const title = ctx.logs.routeTitle(row.method, row.methodClass, lang);
      if (title) row.title = title;
    }
  },
});

/** What the usual log's level and event codes read as. */
export const USUAL_LOG_DICTS: DictSeed[] = [
  { code: 'log_level', name: '日志级别', nameEn: 'Log level', items: [['info', '信息', 'Info'], ['warn', '警告', 'Warning'], ['error', '错误', 'Error']] },
  {
    code: 'log_event', name: '日志业务', nameEn: 'Log event',
    items: [
      ['login', '登录', 'Sign-in'], ['logout', '退出登录', 'Sign-out'], ['refresh-reuse', '刷新令牌重用', 'Refresh token reuse'],
      ['app-login', 'APP 登录', 'App sign-in'], ['password-changed', '修改密码', 'Password change'],
      ['register-guest', '访客注册', 'Guest registration'], ['sms', '短信', 'SMS'],
    ],
  },
];

/**
 * Rows written before events were kept as messages: their English text becomes the message it said, so they too
 * read in the reader's language.
 */
export async function keepOldEventsAsMessages(tx: Tx): Promise<void> {
  const reason = (prefix: string) => sql`jsonb_build_object('key', 'logSignInFailed', 'params', jsonb_build_object('reason', jsonb_build_object('key', substr(log_data, ${prefix.length + 1}))))`;
  await tx.execute(sql`
    update blade_log_usual set message = case
      when log_data like 'sign-in failed: %' then ${reason('sign-in failed: ')}
      when log_data like 'app sign-in failed: %' then ${reason('app sign-in failed: ')}
      when log_data in ('sign-in', 'app sign-in') then '{"key":"logSignIn"}'::jsonb
      when log_data = 'sign-out' then '{"key":"logSignOut"}'::jsonb
      when log_id = 'refresh-reuse' then '{"key":"logRefreshReused"}'::jsonb
      when log_data like 'other sessions signed out: %'
        then jsonb_build_object('key', 'logPasswordChanged', 'params', jsonb_build_object('count', substr(log_data, 28)))
    end
    where message is null and log_id in ('login', 'app-login', 'logout', 'refresh-reuse', 'password-changed')`);
}
