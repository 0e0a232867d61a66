import {
  AppstoreOutlined,
  ControlOutlined,
  DashboardOutlined,
  DesktopOutlined,
  HomeOutlined,
  NotificationOutlined,
  SafetyOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { isValidElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { homeIcon, menuIcon } from './menuIcons';

/** The icon component a menu gets. */
function iconOf(source: string | null | undefined, code = 'x', isRoot = false): unknown {
  const icon: ReactNode = menuIcon({ source, code }, isRoot);
  expect(isValidElement(icon)).toBe(true);
  return isValidElement(icon) ? icon.type : undefined;
}

describe('menuIcon', () => {
  it('shows Saber\'s iconfont classes (BladeX\'s source) as antd icons', () => {
    expect(iconOf('iconfont iconicon_airplay')).toBe(DesktopOutlined);
    expect(iconOf('iconfont iconicon_sms')).toBe(NotificationOutlined);
    expect(iconOf('iconfont iconicon_setting')).toBe(SettingOutlined);
    expect(iconOf('iconfont iconicon_community_line')).toBe(ControlOutlined);
    expect(iconOf('iconfont iconicon_group')).toBe(TeamOutlined);
    expect(iconOf('iconfont icon-yanzhengma')).toBe(DashboardOutlined);
    // the class alone, or in another order and spacing
    expect(iconOf('iconicon_setting')).toBe(SettingOutlined);
    expect(iconOf('  iconicon_airplay   iconfont ')).toBe(DesktopOutlined);
  });

  it('still accepts an antd icon name, in full or short', () => {
    expect(iconOf('SettingOutlined')).toBe(SettingOutlined);
    expect(iconOf('DesktopOutlined')).toBe(DesktopOutlined);
    expect(iconOf('notification')).toBe(NotificationOutlined);
    expect(iconOf('SafetyFilled')).toBe(SafetyOutlined);
  });

  it('falls back to the default menu icon for an empty or unknown source (Saber\'s icon-caidan)', () => {
    expect(iconOf('iconfont icon-caidan')).toBe(AppstoreOutlined);
    for (const source of ['', '   ', null, undefined, 'iconfont', 'iconfont iconicon_nosuchicon', 'iconfont icon-nosuch', 'NoSuchOutlined', 'constructor', 'iconfont __proto__']) {
      expect(iconOf(source), String(source)).toBe(AppstoreOutlined);
    }
  });

  it('gives a root menu without a known source the icon of its area', () => {
    expect(iconOf('', 'system', true)).toBe(SettingOutlined);
    expect(iconOf('iconfont icon-nosuch', 'authority', true)).toBe(SafetyOutlined);
    expect(iconOf('', 'constructor', true)).toBe(AppstoreOutlined);
    // a known source wins over the area
    expect(iconOf('iconfont iconicon_airplay', 'system', true)).toBe(DesktopOutlined);
    expect(iconOf('', 'system', false)).toBe(AppstoreOutlined);
  });

  it('has a home icon', () => {
    expect(isValidElement(homeIcon) && homeIcon.type).toBe(HomeOutlined);
  });
});
