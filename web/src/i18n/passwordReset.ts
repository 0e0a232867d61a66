/** Strings of the forced password change (lazy: registered by its dialog's chunk, i18n/lazy.ts). */
export const passwordResetZh = {
  title: '请修改初始密码',
  hint: '你正在使用初始密码或管理员重置的密码。为了账号安全, 请先修改密码, 修改后即可继续使用系统。',
  signOut: '退出登录',
};

export const passwordResetEn: typeof passwordResetZh = {
  title: 'Change your initial password',
  hint: 'You are using an initial password or one an administrator reset. For your account\'s safety, change it first; then you can go on working.',
  signOut: 'Sign out',
};
