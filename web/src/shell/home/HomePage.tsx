import { NotificationOutlined } from '@ant-design/icons';
import { noticeResource, type Page } from '@console/contract';
import { useQuery } from '@tanstack/react-query';
import { resourceKeys } from '../../resource/api';
import { Card, List, Space, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { DetailDrawer } from '../../resource/DetailDrawer';
import { useDicts } from '../../resource/dict';
import { displayText } from '../../resource/display';
import type { ResourceRecord } from '../../resource/types';
import { useSession } from '../../store/session';

type Notice = ResourceRecord<typeof noticeResource.fields>;

const LATEST_NOTICES = { current: 1, size: 5, descs: 'release_time' } as const;

function greetingKey(hour: number) {
  if (hour < 11) return 'home.morning' as const;
  if (hour < 13) return 'home.noon' as const;
  if (hour < 18) return 'home.afternoon' as const;
  return 'home.evening' as const;
}

/** /wel/index: a greeting and the latest notices, each opening its detail. */
export function HomePage() {
  const { t } = useTranslation();
  const lang = useLang();
  const user = useSession((s) => s.userInfo);
  const dicts = useDicts(noticeResource);
  const [openId, setOpenId] = useState<string | null>(null);
  const closeNotice = useCallback(() => setOpenId(null), []);

  // Silent: a user without access to notices still gets a working home page. Keyed under the notice
  // resource, so adding or deleting a notice on its list page refreshes this feed too.
  const notices = useQuery({
    queryKey: [...resourceKeys.all(noticeResource.path), 'latest', lang],
    queryFn: () => request<Page<Notice>>(`${noticeResource.path}/list`, { query: LATEST_NOTICES, silent: true }),
  });

  const name = user?.real_name || user?.nick_name || user?.account || '';
  const { category, releaseTime } = noticeResource.fields;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }} data-testid="home-greeting">
          {t('home.greeting', { greeting: t(greetingKey(new Date().getHours())), name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('home.welcome')}</Typography.Paragraph>
        <Space wrap>
          {user?.tenant_id && <Tag>{t('home.tenant', { tenantId: user.tenant_id })}</Tag>}
          {user?.role_name && <Tag color="green">{t('home.role', { role: user.role_name })}</Tag>}
        </Space>
      </Card>
      <Card
        title={
          <Space>
            <NotificationOutlined />
            {t('home.notices')}
          </Space>
        }
      >
        <List<Notice>
          loading={notices.isPending}
          dataSource={notices.data?.records ?? []}
          locale={{ emptyText: t('home.noNotices') }}
          data-testid="home-notices"
          renderItem={(notice) => (
            <List.Item key={notice.id} data-testid="home-notice">
              <List.Item.Meta
                title={
                  <Typography.Link onClick={() => setOpenId(notice.id)}>{notice.title}</Typography.Link>
                }
                description={
                  <Space split="·">
                    <span>{displayText(category, notice.category, dicts)}</span>
                    <span>{displayText(releaseTime, notice.releaseTime, dicts)}</span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      </Card>
      <DetailDrawer def={noticeResource} id={openId} onClose={closeNotice} />
    </Space>
  );
}
