import { BellOutlined } from '@ant-design/icons';
import { type Page } from '@console/contract';
import {
  NOTICE_BELL, type NoticeBellItem, noticeResource, type NoticeUnreadCount,
} from '@console/contract/areas/desk/index';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Popover, Spin } from 'antd';
import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { request } from '../../api/client';
import { useLang } from '../../i18n';
import { resourceKeys } from '../../resource/api';
import { useDicts } from '../../resource/dict';
import { useSession } from '../../store/session';
import { lazy } from '../chunkLoad';
import { useFoldedBadge } from '../layout/header/headerFold';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';
import { categoriesByTab, NOTICE_TABS, type NoticeTab, unreadByTab } from './noticeTabs';

export type Notice = NoticeBellItem;

const NoticePanel = lazy(() => import('./NoticePanel').then((m) => ({ default: m.NoticePanel })));
const DetailDrawer = lazy(() => import('../../resource/DetailDrawer').then((m) => ({ default: m.DetailDrawer })));

/** Newest notices per tab. */
const PER_TAB = 10;
const NOTICES_PATH = '/desk/notice';
/** Other people's new notices reach the badge within this long (and at once when the window regains focus). */
const REFRESH_MS = 60_000;

/**
 * The bell: the caller's unread released notices counted on the badge and per tab (read state kept on the
 * server, per user), the newest notices of each tab with unread ones marked, mark one read by opening it,
 * and mark a tab's notices all read.
 */
export function NoticeTool() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSession((s) => s.userInfo);
  const userKey = `${user?.tenant_id ?? ''}:${user?.user_id ?? ''}`;
  const dicts = useDicts(noticeResource);
  const [open, setOpen] = useState(false);
  // the tab lists load when the popover first opens; the badge needs only the counts
  const [opened, setOpened] = useState(false);
  const [detailId, setDetailId] = useState<string | null>(null);
  // the drawer's code loads on first use and stays mounted so it can slide out
  const [detailUsed, setDetailUsed] = useState(false);
  const closeDetail = useCallback(() => setDetailId(null), []);
  // the read list this browser kept before the server did (issue 8) is no longer used
  useEffect(() => localStorage.removeItem('saber-notice-read'), []);

  // Keyed under the notice resource: adding or deleting notices on their page refreshes the bell too.
  const bellKey = useMemo(() => [...resourceKeys.all(noticeResource.path), 'bell', userKey] as const, [userKey]);
  // Silent: a failure leaves the badge as it was.
  const counts = useQuery({
    queryKey: [...bellKey, 'unread'],
    queryFn: () => request<NoticeUnreadCount>(NOTICE_BELL.unreadCount, { silent: true }),
    refetchInterval: REFRESH_MS,
    enabled: !!user,
  });
  // the dictionary's categories, and any other category that has unread notices (it goes to the notice
  // tab), so every unread notice the badge counts is in a tab and can be marked read there
  const byTab = useMemo(
    () => categoriesByTab([...new Set([...(dicts.notice ?? []).map((d) => d.dictKey), ...Object.keys(counts.data?.byCategory ?? {})])]),
    [dicts, counts.data],
  );
  const lists = useQueries({
    queries: NOTICE_TABS.map((tab) => ({
      queryKey: [...bellKey, 'inbox', tab, byTab[tab].join(','), lang],
      queryFn: () =>
        request<Page<Notice>>(NOTICE_BELL.inbox, {
          query: { current: 1, size: PER_TAB, category_in: byTab[tab].join(',') },
          silent: true,
        }),
      enabled: opened && byTab[tab].length > 0,
    })),
  });
  const notices = useMemo(() => {
    const out = {} as Record<NoticeTab, Notice[]>;
    NOTICE_TABS.forEach((tab, i) => (out[tab] = lists[i]?.data?.records ?? []));
    return out;
  }, [lists]);
  const loading = lists.some((l) => l.isLoading);
  const total = counts.data?.total ?? 0;
  const perTab = useMemo(() => unreadByTab(counts.data?.byCategory ?? {}, byTab), [counts.data, byTab]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: bellKey }), [queryClient, bellKey]);
  const markRead = useMutation({
    mutationFn: (id: string) => request<boolean>(NOTICE_BELL.read, { method: 'POST', query: { ids: id }, silent: true }),
    onSettled: refresh,
  });
  const markAll = useMutation({
    // a tab without categories has nothing to mark (an empty category list would mean every category)
    mutationFn: async (tab: NoticeTab) =>
      byTab[tab].length > 0 && request<boolean>(NOTICE_BELL.readAll, { method: 'POST', query: { category: byTab[tab].join(',') } }),
    onSettled: refresh,
  });
  useFoldedBadge('notice', total);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setOpened(true);
      void refresh();
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
              unread={perTab}
              loading={loading}
              marking={markAll.isPending}
              dicts={dicts}
              onOpenNotice={(n) => {
                if (!n.read) markRead.mutate(n.id);
                setOpen(false);
                setDetailUsed(true);
                setDetailId(n.id);
              }}
              onReadAll={(tab) => markAll.mutate(tab)}
              onViewAll={() => {
                setOpen(false);
                navigate(NOTICES_PATH);
              }}
            />
          </Suspense>
        }
      >
        <span data-testid="notice-badge" data-count={total} data-loaded={counts.isSuccess}>
          <Badge count={total} overflowCount={99} size="small" offset={[-4, 4]}>
            <HeaderIconButton label={t('tools.notice.button')} icon={<BellOutlined />} data-testid="tool-notice" />
          </Badge>
        </span>
      </Popover>
      {detailUsed && (
        <Suspense fallback={null}>
          <DetailDrawer def={noticeResource} id={detailId} onClose={closeDetail} detailUrl={NOTICE_BELL.inboxDetail} />
        </Suspense>
      )}
    </>
  );
}
