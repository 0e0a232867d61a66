import { BellOutlined } from '@ant-design/icons';
import { noticeResource, type Page } from '@console/contract';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Badge, Popover, Spin } from 'antd';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { resourceKeys } from '../../resource/api';
import { useDicts } from '../../resource/dict';
import type { ResourceRecord } from '../../resource/types';
import { useNoticeRead } from '../../store/noticeRead';
import { useSession } from '../../store/session';
import { lazy } from '../chunkLoad';
import { useFoldedBadge } from '../layout/header/headerFold';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';
import { categoriesByTab, NOTICE_TABS, type NoticeTab } from './noticeTabs';

export type Notice = ResourceRecord<typeof noticeResource.fields>;

const NoticePanel = lazy(() => import('./NoticePanel').then((m) => ({ default: m.NoticePanel })));
const DetailDrawer = lazy(() => import('../../resource/DetailDrawer').then((m) => ({ default: m.DetailDrawer })));

/** Newest notices per tab. */
const PER_TAB = 10;
const NOTICES_PATH = '/desk/notice';
const EMPTY: readonly string[] = [];

/** The bell: the newest notices in mail / message / notice tabs, unread ones counted on the badge. */
export function NoticeTool() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.userInfo);
  const userKey = `${user?.tenant_id ?? ''}:${user?.user_id ?? ''}`;
  const read = useNoticeRead((s) => s.byUser[userKey] ?? EMPTY);
  const markRead = useNoticeRead((s) => s.markRead);
  const dicts = useDicts(noticeResource);
  const [open, setOpen] = useState(false);
  const [detailId, setDetailId] = useState<string | null>(null);
  // the drawer's code loads on first use and stays mounted so it can slide out
  const [detailUsed, setDetailUsed] = useState(false);
  const closeDetail = useCallback(() => setDetailId(null), []);

  const byTab = useMemo(() => categoriesByTab((dicts.notice ?? []).map((d) => d.dictKey)), [dicts]);
  // Keyed under the notice resource: adding or deleting notices on their page refreshes the bell too.
  // Silent: a user without access to notices simply sees none.
  const lists = useQueries({
    queries: NOTICE_TABS.map((tab) => ({
      queryKey: [...resourceKeys.all(noticeResource.path), 'popover', tab, byTab[tab].join(','), lang],
      queryFn: () =>
        request<Page<Notice>>(`${noticeResource.path}/list`, {
          query: { current: 1, size: PER_TAB, descs: 'release_time', category_in: byTab[tab].join(',') },
          silent: true,
        }),
      enabled: byTab[tab].length > 0,
    })),
  });
  const notices = useMemo(() => {
    const out = {} as Record<NoticeTab, Notice[]>;
    NOTICE_TABS.forEach((tab, i) => (out[tab] = lists[i]?.data?.records ?? []));
    return out;
  }, [lists]);
  const loading = lists.some((l) => l.isLoading);

  const unread = useMemo(() => {
    const ids = new Set(NOTICE_TABS.flatMap((tab) => notices[tab].map((n) => n.id)));
    return [...ids].filter((id) => !read.includes(id)).length;
  }, [notices, read]);
  useFoldedBadge('notice', unread);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      void queryClient.invalidateQueries({ queryKey: [...resourceKeys.all(noticeResource.path), 'popover'] });
    }
  };

  return (
    <>
      <Popover
        trigger="click"
        placement="bottomRight"
        open={open}
        onOpenChange={onOpenChange}
        arrow={false}
        // shifted to stay inside a narrow window (opened from the header's "more tools" menu)
        align={{ overflow: { adjustX: true, adjustY: true, shiftX: true, shiftY: true } }}
        styles={{ body: { padding: 0 } }}
        // the popup (and with it the panel's code) renders on first open
        content={
          <Suspense fallback={<Spin style={{ display: 'block', padding: 24 }} />}>
            <NoticePanel
              notices={notices}
              read={read}
              loading={loading}
              dicts={dicts}
              onOpenNotice={(id) => {
                markRead(userKey, [id]);
                setOpen(false);
                setDetailUsed(true);
                setDetailId(id);
              }}
              onViewAll={() => {
                setOpen(false);
                navigate(NOTICES_PATH);
              }}
            />
          </Suspense>
        }
      >
        <span data-testid="notice-badge" data-count={unread}>
          <Badge count={unread} overflowCount={99} size="small" offset={[-4, 4]}>
            <HeaderIconButton label={t('tools.notice.button')} icon={<BellOutlined />} data-testid="tool-notice" />
          </Badge>
        </span>
      </Popover>
      {detailUsed && (
        <Suspense fallback={null}>
          <DetailDrawer def={noticeResource} id={detailId} onClose={closeDetail} />
        </Suspense>
      )}
    </>
  );
}
