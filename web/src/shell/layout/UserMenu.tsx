import { CheckOutlined, DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { LANGS } from '@console/contract/i18n';
import { App, Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { signOut } from '../../auth/session';
import { isLang } from '../../i18n';
import { useSession } from '../../store/session';
import { useSettings } from '../../store/settings';
import { testId } from '../../testId';

const LANG_PREFIX = 'lang:';

/** The user name in the header, with the language switch and sign-out. */
export function UserMenu() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const user = useSession((s) => s.userInfo);
  const lang = useSettings((s) => s.lang);
  const setLang = useSettings((s) => s.setLang);

  const confirmSignOut = () => {
    modal.confirm({
      title: t('common.tip'),
      content: t('layout.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: async () => {
        await signOut();
        navigate('/login', { replace: true });
      },
    });
  };

  const items: MenuProps['items'] = [
    {
      key: 'language',
      type: 'group',
      label: t('layout.language'),
      children: LANGS.map((l) => ({
        key: `${LANG_PREFIX}${l}`,
        label: <span data-testid={`lang-${l}`}>{t(`languages.${l}`)}</span>,
        icon: l === lang ? <CheckOutlined /> : <span style={{ display: 'inline-block', width: 14 }} />,
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="logout">{t('layout.logout')}</span> },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') return confirmSignOut();
    const code = key.slice(LANG_PREFIX.length);
    if (key.startsWith(LANG_PREFIX) && isLang(code)) setLang(code);
  };

  const name = user?.real_name || user?.nick_name || user?.user_name || user?.account || '';
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick }} placement="bottomRight">
      <Button type="text" data-testid="user-menu" icon={<Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} />}>
        <span data-testid="user-name">{name}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
