import { AppstoreOutlined } from '@ant-design/icons';
import { Card, Empty, Space, theme } from 'antd';
import { useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLang } from '../../../i18n';
import { useSession } from '../../../store/session';
import { menuIcon } from '../../layout/menuIcons';
import { menuLabel, menuTarget } from '../../layout/menuTree';
import './shortcuts.css';
import { readVisits, subscribeVisits, topShortcuts, userKey, visitsSnapshot } from './visits';

/** The home page's shortcuts: the user's most visited menu pages that are still in their menu. */
export function Shortcuts() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const lang = useLang();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const menu = useSession((s) => s.menu);
  // the home page stays mounted in its tab while the user works elsewhere: follow the counts
  const stored = useSyncExternalStore(subscribeVisits, visitsSnapshot);
  const shortcuts = useMemo(
    () => (user ? topShortcuts(readVisits(userKey(user.tenant_id, user.user_id), stored), menu) : []),
    [user, menu, stored],
  );

  const open = (path: string) => {
    const node = shortcuts.find((n) => n.path === path);
    if (!node) return;
    const target = menuTarget(node);
    if (target.kind === 'window') window.open(target.url, '_blank', 'noopener');
    else navigate(target.to);
  };

  return (
    <Card
      title={
        <Space>
          <AppstoreOutlined />
          {t('pages.home.shortcuts')}
        </Space>
      }
      data-testid="home-shortcuts"
    >
      {shortcuts.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.home.noShortcuts')} />
      ) : (
        // a plain CSS grid (shortcuts.css), laid out as antd's Row and Col would, which stay off the first page
        <div className="home-shortcuts">
          {shortcuts.map((node) => (
            <div key={node.path}>
              <button
                type="button"
                onClick={() => open(node.path)}
                data-testid="home-shortcut"
                data-path={node.path}
                style={{
                  width: '100%',
                  padding: '16px 8px',
                  border: `1px solid ${token.colorBorderSecondary}`,
                  borderRadius: token.borderRadiusLG,
                  background: token.colorBgContainer,
                  cursor: 'pointer',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  gap: 8,
                  color: token.colorText,
                }}
              >
                <span style={{ fontSize: 22, color: token.colorPrimary }}>{menuIcon(node, true)}</span>
                <span style={{ maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {menuLabel(node, lang)}
                </span>
              </button>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}
