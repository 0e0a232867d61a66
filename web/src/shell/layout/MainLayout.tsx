import { useQuery } from '@tanstack/react-query';
import { ConfigProvider, Layout } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { navigationQuery } from '../../auth/session';
import { startTokenRefresh } from '../../auth/tokenRefresh';
import { useSettings } from '../../store/settings';
import { HOME_PATH } from '../paths';
import '../theme/frame.css';
import { HEADER_HEIGHT, siderTheme } from '../theme/themeStyle';
import { HeaderTools } from '../tools/HeaderTools';
import { RegionAlarm } from '../alarm/RegionAlarm';
import { PasswordResetGate } from '../password/PasswordResetGate';
import { HeaderBar } from './header/HeaderBar';
import { useAutoCollapse } from './screen';
import { KeptPages } from '../tabs/KeptPages';
import { TabBar } from '../tabs/TabBar';
import { SideMenu } from './SideMenu';

const SIDER_WIDTH = 220;

/** The signed-in frame: sidebar menu, header bar, the page. Colours come from the chosen theme. */
export function MainLayout() {
  const { t } = useTranslation();
  const collapsed = useSettings((s) => s.collapsed);
  const themeName = useSettings((s) => s.theme);
  const primary = useSettings((s) => s.primaryColor);
  const sider = useMemo(() => siderTheme(themeName, primary), [themeName, primary]);

  // Menu and permissions may have changed since they were stored: reload them once per page load.
  useQuery(navigationQuery);
  useEffect(() => startTokenRefresh(), []);
  useAutoCollapse();

  return (
    <Layout className="shell-frame">
      <ConfigProvider theme={sider}>
        <Layout.Sider width={SIDER_WIDTH} collapsed={collapsed} trigger={null} className="shell-sider" data-testid="sider">
          <Link to={HOME_PATH} className="shell-logo" style={{ height: HEADER_HEIGHT, fontSize: collapsed ? 16 : 18 }} data-testid="logo">
            {collapsed ? 'IoT' : t('app.name')}
          </Link>
          <SideMenu collapsed={collapsed} />
        </Layout.Sider>
      </ConfigProvider>
      <Layout>
        <HeaderBar tools={<HeaderTools />} />
        <Layout.Content>
          <TabBar top={HEADER_HEIGHT} />
          <div style={{ padding: 16 }}>
            <KeptPages />
          </div>
        </Layout.Content>
      </Layout>
      <PasswordResetGate />
      <RegionAlarm />
    </Layout>
  );
}
