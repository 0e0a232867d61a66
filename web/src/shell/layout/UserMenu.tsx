import { DashboardOutlined, DownOutlined, IdcardOutlined, LogoutOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { consoleConfigQuery } from '../../api/consoleConfig';
import { useLang } from '../../i18n';
import { useSession } from '../../store/session';
import { lazy } from '../chunkLoad';
import { useConfirmSignOut } from '../useConfirmSignOut';
import { displayName } from '../userName';

const SwitchIdentityDialog = lazy(() =>
  import('../tools/SwitchIdentityDialog').then((m) => ({ default: m.SwitchIdentityDialog })),
);

export const DASHBOARD_PATH = '/wel/dashboard';
export const USER_INFO_PATH = '/info/index';

/** Avatar and user name; dashboard, personal info, switch department/role (switch mode only) and sign-out. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const lang = useLang();
  const switchMode = useQuery(consoleConfigQuery).data?.switchMode === true;
  const [switching, setSwitching] = useState(false);
  const [switchUsed, setSwitchUsed] = useState(false);

  const confirmSignOut = useConfirmSignOut();

  const items: MenuProps['items'] = [
    { key: 'dashboard', icon: <DashboardOutlined aria-hidden="true" />, label: <span data-testid="user-menu-dashboard">{t('tools.userMenu.dashboard')}</span> },
    { key: 'info', icon: <IdcardOutlined aria-hidden="true" />, label: <span data-testid="user-menu-info">{t('tools.userMenu.info')}</span> },
    ...(switchMode
      ? [{ key: 'switch', icon: <SwapOutlined aria-hidden="true" />, label: <span data-testid="user-menu-switch">{t('tools.userMenu.switch')}</span> }]
      : []),
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined aria-hidden="true" />, label: <span data-testid="logout">{t('layout.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'dashboard') navigate(DASHBOARD_PATH);
    else if (key === 'info') navigate(USER_INFO_PATH);
    else if (key === 'switch') {
      setSwitchUsed(true);
      setSwitching(true);
    } else if (key === 'logout') confirmSignOut();
  };

  const name = displayName(user, lang);
  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
        <Button
          type="text"
          aria-label={name ? `${t('chrome.header.userMenu')}: ${name}` : t('chrome.header.userMenu')}
          title={name || undefined}
          data-testid="user-menu"
          icon={<Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} aria-hidden="true" />}
        >
          <span className="shell-user-name" data-testid="user-name">{name}</span>
          <DownOutlined className="shell-user-caret" aria-hidden="true" style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
      {switchUsed && (
        <Suspense fallback={null}>
          <SwitchIdentityDialog open={switching} onClose={() => setSwitching(false)} />
        </Suspense>
      )}
    </>
  );
}
