/**
 * Strings of the shell's own pages that the first page after sign-in (or the login page) needs: page titles,
 * the agreements' names (the login page links them) and the home shortcuts. Each page's own strings load
 * with it: policyPage.ts, testPage.ts, iframePage.ts, dashboardPage.ts, infoPage.ts (i18n/lazy.ts).
 */
export const pagesZh = {
  titles: {
    dashboard: '仪表盘',
    info: '个人信息',
    test: '系统检测',
    policy: '用户协议',
    iframe: '外部页面',
  },
  policy: {
    userAgreement: '用户协议',
    privacyPolicy: '隐私政策',
  },
  home: {
    shortcuts: '常用功能',
    noShortcuts: '常去的页面会显示在这里',
  },
};

export type PagesMessages = typeof pagesZh;

export const pagesEn: PagesMessages = {
  titles: {
    dashboard: 'Dashboard',
    info: 'Personal info',
    test: 'Diagnostics',
    policy: 'Agreement',
    iframe: 'External page',
  },
  policy: {
    userAgreement: 'User agreement',
    privacyPolicy: 'Privacy policy',
  },
  home: {
    shortcuts: 'Shortcuts',
    noShortcuts: 'The pages you use most will show up here',
  },
};
