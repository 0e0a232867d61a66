import { noticeResource, type NoticeBellItem as Notice } from '@console/contract/areas/desk/index';
import { Badge, Button, List, Spin, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../resource/display';
import type { DictMap } from '../../resource/dictValues';
import { countLabel, NOTICE_TABS, type NoticeTab } from './noticeTabs';

export interface NoticePanelProps {
  notices: Record<NoticeTab, Notice[]>;
  /** unread notices per tab (from the server's counts, not from the lists shown) */
  unread: Record<NoticeTab, number>;
  loading: boolean;
  /** a "mark all as read" is under way */
  marking: boolean;
  dicts: DictMap;
  onOpenNotice: (notice: Notice) => void;
  onReadAll: (tab: NoticeTab) => void;
  onViewAll: () => void;
}

/** The popover body: one tab per group with its unread count, unread notices marked, "mark all as read" for the open tab, and a link to every notice. */
export function NoticePanel({ notices, unread, loading, marking, dicts, onOpenNotice, onReadAll, onViewAll }: NoticePanelProps) {
  const { t } = useTranslation();
  const { category, releaseTime } = noticeResource.fields;
  const [active, setActive] = useState<NoticeTab>(NOTICE_TABS[0]);

  return (
    <div style={{ width: 'min(340px, calc(100vw - 16px))' }} data-testid="notice-popover">
      <Spin spinning={loading}>
        <Tabs
          centered
          activeKey={active}
          onChange={(key) => setActive(key as NoticeTab)}
          tabBarStyle={{ marginBottom: 0 }}
          items={NOTICE_TABS.map((tab) => ({
            key: tab,
            label: (
              <span data-testid={`notice-tab-${tab}`} data-count={unread[tab]}>
                {t(`tools.notice.${tab}`)}
                {unread[tab] > 0 && ` (${countLabel(unread[tab])})`}
              </span>
            ),
            children: (
              <List<Notice>
                size="small"
                dataSource={notices[tab]}
                locale={{ emptyText: t('tools.notice.empty') }}
                style={{ maxHeight: 360, overflowY: 'auto' }}
                renderItem={(n) => {
                  const isUnread = !n.read;
                  return (
                    <List.Item
                      key={n.id}
                      onClick={() => onOpenNotice(n)}
                      style={{ cursor: 'pointer', padding: '8px 16px' }}
                      data-testid="notice-item"
                      data-unread={isUnread}
                    >
                      <List.Item.Meta
                        title={
                          <Badge dot={isUnread} offset={[6, 0]}>
                            <Typography.Text strong={isUnread} ellipsis style={{ maxWidth: 280 }}>
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
      <div style={{ borderTop: '1px solid rgba(5,5,5,0.06)', display: 'flex' }}>
        <Button
          type="link"
          style={{ flex: 1 }}
          disabled={unread[active] === 0}
          loading={marking}
          onClick={() => onReadAll(active)}
          data-testid="notice-read-all"
        >
          {t('tools.notice.readAll')}
        </Button>
        <Button type="link" style={{ flex: 1 }} onClick={onViewAll} data-testid="notice-view-all">
          {t('tools.notice.viewAll')}
        </Button>
      </div>
    </div>
  );
}
