/** Strings of the header chrome: themes, colour, lock, full screen, menu search, top menu. */
export const chromeZh = {
  header: {
    topMenuHome: '首页',
    topMenu: '顶部菜单',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
  },
  theme: {
    choose: '主题',
    title: '选择主题',
    current: '当前',
    names: {
      default: '默认主题',
      white: '白色主题',
      dark: '黑色主题',
      star: '炫彩主题',
      smart: '智能主题',
      iview: 'iview主题',
      vip: 'vip主题',
      cool: 'cool主题',
      d2: 'd2主题',
      hey: 'hey主题',
      lte: 'lte主题',
    },
  },
  colour: {
    label: '主题色',
    presets: '推荐颜色',
  },
  lock: {
    button: '锁屏',
    title: '设置锁屏密码',
    password: '锁屏密码',
    passwordRequired: '锁屏密码不能为空',
    submit: '锁屏',
    screenTitle: '屏幕已锁定',
    unlockPlaceholder: '请输入锁屏密码',
    unlock: '解锁',
    wrongPassword: '解锁密码错误,请重新输入',
    passwordEmpty: '请输入锁屏密码',
    logout: '退出登录',
  },
  search: {
    button: '搜索菜单',
    placeholder: '输入菜单名称或路径',
    empty: '没有匹配的菜单',
    hint: '↑↓ 选择 · Enter 打开 · Esc 关闭',
  },
};

export type ChromeMessages = typeof chromeZh;

export const chromeEn: ChromeMessages = {
  header: {
    topMenuHome: 'Home',
    topMenu: 'Top menu',
    fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen',
  },
  theme: {
    choose: 'Theme',
    title: 'Choose a theme',
    current: 'Current',
    names: {
      default: 'Default',
      white: 'White',
      dark: 'Dark',
      star: 'Starry',
      smart: 'Smart blue',
      iview: 'iView',
      vip: 'VIP gold',
      cool: 'Cool',
      d2: 'D2',
      hey: 'Hey',
      lte: 'LTE',
    },
  },
  colour: {
    label: 'Primary colour',
    presets: 'Suggested colours',
  },
  lock: {
    button: 'Lock screen',
    title: 'Set a lock password',
    password: 'Lock password',
    passwordRequired: 'The lock password cannot be empty',
    submit: 'Lock',
    screenTitle: 'Screen locked',
    unlockPlaceholder: 'Enter the lock password',
    unlock: 'Unlock',
    wrongPassword: 'Wrong password, please try again',
    passwordEmpty: 'Please enter the lock password',
    logout: 'Sign out',
  },
  search: {
    button: 'Search menu',
    placeholder: 'Type a menu name or path',
    empty: 'No matching menu',
    hint: '↑↓ select · Enter open · Esc close',
  },
};
