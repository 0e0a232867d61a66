import { NotificationOutlined } from '@ant-design/icons';
import { permissionCodes, type Page, type SessionUserInfo } from '@console/contract';
import { noticeResource } from '@console/contract/areas/desk/index';
import { API } from '@console/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { resourceKeys } from '../../resource/api';
import { Card, Empty, Space, Spin, Tag, theme } from 'antd';
import { Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { useDicts } from '../../resource/dict';
import { displayText } from '../../resource/display';
import type { ResourceRecord } from '../../resource/types';
import { useCodeCheck } from '../../store/permissions';
import { useSession } from '../../store/session';
import './home.css';
import { lazy } from '../chunkLoad';
import { Shortcuts } from '../pages/home/Shortcuts';
import { displayName } from '../userName';

// The first page after sign-in stays light: the drawer's code (descriptions, rich text) loads on first use.
const DetailDrawer = lazy(() => import('../../resource/DetailDrawer').then((m) => ({ default: m.DetailDrawer })));

type Notice = ResourceRecord<typeof noticeResource.fields>;

const LATEST_NOTICES = { current: 1, size: 5, descs: 'release_time' } as const;

function greetingKey(hour: number) {
  if (hour < 11) return 'home.morning' as const;
  if (hour < 13) return 'home.noon' as const;
  if (hour < 18) return 'home.afternoon' as const;
  return 'home.evening' as const;
}

/** /wel/index: a greeting, shortcuts to the most used screens and the latest notices, each opening its detail. */
export function HomePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const user = useSession((s) => s.userInfo);
  const dicts = useDicts(noticeResource);
  const [openId, setOpenId] = useState<string | null>(null);
  const [drawerUsed, setDrawerUsed] = useState(false);
  const { token } = theme.useToken();
  const closeNotice = useCallback(() => setOpenId(null), []);
  const openNotice = (id: string) => {
    setDrawerUsed(true);
    setOpenId(id);
  };

  // The card needs the notice list's permission: without it the card is not shown and nothing is asked.
  // Keyed under the notice resource, so adding or deleting a notice on its list page refreshes this feed too.
  const can = useCodeCheck();
  const showNotices = can(permissionCodes(noticeResource).menu);
  const notices = useQuery({
    queryKey: [...resourceKeys.all(noticeResource.path), 'latest', lang],
    queryFn: () => request<Page<Notice>>(`${noticeResource.path}/list`, { query: LATEST_NOTICES, silent: true }),
    enabled: showNotices,
  });

  // The token names its roles by code (role_name is the aliases, as in BladeX): the names, in the UI
  // language, come from user-info. Keyed by the token's roles, so a switch of role shows the new ones.
  const userInfo = useQuery({
    queryKey: ['user-info', user?.user_id, user?.role_id, user?.dept_id, lang],
    queryFn: () => request<SessionUserInfo>(API.userInfo, { silent: true }),
    enabled: Boolean(user),
  });
  const roles = userInfo.data?.roleName.split(',').filter(Boolean) ?? [];
  const roleNames = roles.join(lang === 'en' ? ', ' : '、');

  const name = displayName(user, lang);
  const { category, releaseTime } = noticeResource.fields;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        {/* plain elements: antd's Typography brings Input and TextArea (its editable mode) into the first page */}
        <h3 style={{ marginTop: 0, fontSize: token.fontSizeHeading3, color: token.colorTextHeading }} data-testid="home-greeting">
          {t('home.greeting', { greeting: t(greetingKey(new Date().getHours())), name })}
        </h3>
        <p style={{ color: token.colorTextSecondary }}>{t('home.welcome')}</p>
        <Space wrap>
          {user?.tenant_id && <Tag>{t('home.tenant', { tenantId: user.tenant_id })}</Tag>}
          {roleNames && (
            <Tag color="green" data-testid="home-roles">{roles.length > 1 ? t('home.roles', { roles: roleNames }) : t('home.role', { role: roleNames })}</Tag>
          )}
        </Space>
      </Card>
      <Shortcuts />
      {showNotices && <Card
        title={
          <Space>
            <NotificationOutlined />
            {t('home.notices')}
          </Space>
        }
      >
        {/* a plain list: antd's List brings Pagination and Select into the first page */}
        <Spin spinning={notices.isPending}>
          {(notices.data?.records ?? []).length === 0 && !notices.isPending ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noNotices')} data-testid="home-notices" />
          ) : (
            <ul className="home-notices" data-testid="home-notices">
              {(notices.data?.records ?? []).map((notice) => (
                <li key={notice.id} data-testid="home-notice" style={{ borderBottomColor: token.colorSplit }}>
                  <a role="button" tabIndex={0} onClick={() => openNotice(notice.id)} onKeyDown={(e) => e.key === 'Enter' && openNotice(notice.id)}>
                    {notice.title}
                  </a>
                  <span className="home-notice-meta" style={{ color: token.colorTextSecondary }}>
                    {displayText(category, notice.category, dicts)} · {displayText(releaseTime, notice.releaseTime, dicts)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Spin>
      </Card>}
      {drawerUsed && (
        <Suspense fallback={null}>
          <DetailDrawer def={noticeResource} id={openId} onClose={closeNotice} />
        </Suspense>
      )}
    </Space>
  );
}
