/** Strings of the embedded page /myiframe/:routerPath (lazy: registered by its chunk, i18n/lazy.ts). */
export const iframePageZh = {
  missing: '未指定要打开的页面地址',
  refused: '只能嵌入 http 或 https 地址',
  openInNewWindow: '在新窗口打开',
};

export const iframePageEn: typeof iframePageZh = {
  missing: 'No page address was given',
  refused: 'Only http or https addresses can be embedded',
  openInNewWindow: 'Open in a new window',
};
