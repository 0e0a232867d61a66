import type { I18nText } from '../../i18n.js';

/** Messages of the postsale area (the after-sales app's calls); merged into the contract's `messages` by the area registry. */
export const postsaleMessages = {
  appBadCredentials: { zh: '手机号或密码错误', en: 'Wrong phone number or password' },
  fileRequired: { zh: '请选择要上传的文件', en: 'Please choose a file to upload' },
} as const satisfies Record<string, I18nText>;
