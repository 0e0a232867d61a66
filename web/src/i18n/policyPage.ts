/** Strings of the agreement page /policy/:id (lazy: registered by its chunk, i18n/lazy.ts); its two titles are in pages.ts. */
export const policyPageZh = {
  version: '版本 {{version}}',
  published: '发布于 {{time}}',
  notFoundTitle: '协议不存在',
  notFound: '没有名为「{{id}}」的协议',
  loadFailed: '协议加载失败',
  retry: '重试',
  back: '返回',
};

export const policyPageEn: typeof policyPageZh = {
  version: 'Version {{version}}',
  published: 'Published {{time}}',
  notFoundTitle: 'Agreement not found',
  notFound: 'There is no agreement named "{{id}}"',
  loadFailed: 'The agreement could not be loaded',
  retry: 'Retry',
  back: 'Back',
};
