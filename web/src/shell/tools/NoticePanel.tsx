import { noticeResource } from '@console/contract';
import { Badge, Button, List, Spin, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../resource/display';
import type { DictMap } from '../../resource/dictValues';
import { NOTICE_TABS, type NoticeTab } from './noticeTabs';
import type { Notice } from './NoticeTool';

export interface NoticePanelProps {
  notices: Record<NoticeTab, Notice[]>;
  read: readonly string[];
  loading: boolean;
  dicts: DictMap;
  onOpenNotice: (id: string) => void;
  onViewAll: () => void;
}

/** The popover body: one tab per group, unread notices marked, and a link to every notice. */
export function NoticePanel({ notices, read, loading, dicts, onOpenNotice, onViewAll }: NoticePanelProps) {
  const { t } = useTranslation();
  const { category, releaseTime } = noticeResource.fields;
  const unreadIn = (tab: NoticeTab) => notices[tab].filter((n) => !read.includes(n.id)).length;

  return (
    <div style={{ width: 'min(340px, calc(100vw - 16px))' }} data-testid="notice-popover">
      <Spin spinning={loading}>
        <Tabs
          centered
          tabBarStyle={{ marginBottom: 0 }}
          items={NOTICE_TABS.map((tab) => ({
            key: tab,
            label: (
              <span data-testid={`notice-tab-${tab}`}>
                {t(`tools.notice.${tab}`)}
                {unreadIn(tab) > 0 && ` (${unreadIn(tab)})`}
              </span>
            ),
            children: (
              <List<Notice>
                size="small"
                dataSource={notices[tab]}
                locale={{ emptyText: t('tools.notice.empty') }}
                style={{ maxHeight: 360, overflowY: 'auto' }}
                renderItem={(n) => {
                  const unread = !read.includes(n.id);
                  return (
                    <List.Item
                      key={n.id}
                      onClick={() => onOpenNotice(n.id)}
                      style={{ cursor: 'pointer', padding: '8px 16px' }}
                      data-testid="notice-item"
                      data-unread={unread}
                    >
                      <List.Item.Meta
                        title={
                          <Badge dot={unread} offset={[6, 0]}>
                            <Typography.Text strong={unread} ellipsis style={{ maxWidth: 280 }}>
                              {n.title}
                            </Typography.Text>
                          </Badge>
                        }
                        description={`${displayText(category, n.category, dicts)} · ${displayText(releaseTime, n.releaseTime, dicts)}`}
                      />
                    </List.Item>
                  );
                }}
              />
            ),
          }))}
        />
      </Spin>
      <div style={{ borderTop: '1px solid rgba(5,5,5,0.06)', textAlign: 'center' }}>
        <Button type="link" block onClick={onViewAll} data-testid="notice-view-all">
          {t('tools.notice.viewAll')}
        </Button>
      </div>
    </div>
  );
}
