import { DownOutlined } from '@ant-design/icons';
import type { MenuRoute, TopMenu } from '@console/contract';
import { useQueries } from '@tanstack/react-query';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { queryClient } from '../../../api/queryClient';
import { useTopMenuChoice } from '../../../store/topMenu';
import { HOME_PATH } from '../../paths';
import { menuIcon } from '../menuIcons';
import { menuKeyOf, menuTrail } from '../menuTree';
import { firstPagePath } from './firstPage';
import { topMenuRoutesQuery, useTopMenus } from './topMenu';
import { topMenuOfPage, visibleCount } from './topMenuFit';

const HOME_KEY = 'home';

/**
 * Spec 2 top menu: "home" plus the server's top menus. Choosing one limits the sidebar to its part of
 * the menu (`menu/routes?topMenuId=`) and opens its first page; "home" restores the whole menu.
 * The items that do not fit go into a "more" menu. The highlight follows the page on screen: the top
 * menu whose part of the menu holds it (however it was reached), else the chosen one.
 * Without top menus from the server it is only the space between the toggle and the tools.
 */
export function TopMenuBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { data: topMenus = [] } = useTopMenus();
  const chosen = useTopMenuChoice((s) => s.topMenuId);
  const choose = useTopMenuChoice((s) => s.choose);
  const trees = useQueries({ queries: topMenus.map((m) => topMenuRoutesQuery(m.id)) });
  const treeData = trees.map((q) => q.data);
  const treesById = useMemo(() => new Map(topMenus.map((m, i) => [m.id, treeData[i]])), [topMenus, ...treeData]);

  const current = topMenus.some((m) => m.id === chosen) ? chosen : null;
  const owner = useMemo(
    () => topMenuOfPage(topMenus.map((m) => m.id), current, (id) => {
      const tree: MenuRoute[] | undefined = treesById.get(id);
      return tree !== undefined && menuTrail(tree, menuKeyOf(tree, pathname)).length > 0;
    }),
    [topMenus, current, treesById, pathname],
  );
  const active = owner ?? current;
  // arriving on a page of another top menu's part (by a tab, the search, a link): the sidebar follows it
  const synced = useRef('');
  useEffect(() => {
    if (owner === null || synced.current === pathname) return;
    synced.current = pathname;
    if (current !== null && owner !== current) choose(owner);
  }, [pathname, owner, current, choose]);

  const nav = useRef<HTMLElement>(null);
  const measure = useRef<HTMLDivElement>(null);
  const [fit, setFit] = useState({ shown: Infinity, moreWidth: 0 });
  useLayoutEffect(() => {
    const el = nav.current;
    const row = measure.current;
    if (!el || !row) return;
    const refit = () => {
      const widths = [...row.children].map((c) => c.getBoundingClientRect().width);
      const moreWidth = widths.pop() ?? 0;
      const shown = visibleCount(widths, moreWidth, el.clientWidth);
      setFit((f) => (f.shown === shown && f.moreWidth === moreWidth ? f : { shown, moreWidth }));
    };
    refit();
    const observer = new ResizeObserver(refit);
    observer.observe(el);
    observer.observe(row);
    return () => observer.disconnect();
  }, [topMenus]);

  if (topMenus.length === 0) return <div className="shell-header-space" />;

  const openHome = () => {
    choose(null);
    navigate(HOME_PATH);
  };
  const open = async (item: TopMenu) => {
    choose(item.id);
    const tree = await queryClient.fetchQuery(topMenuRoutesQuery(item.id)).catch(() => null);
    const target = (tree && firstPagePath(tree)) || item.path;
    if (target) navigate(target);
  };

  const entries = [
    { key: HOME_KEY, id: null, label: t('chrome.header.topMenuHome'), icon: null, testId: 'top-menu-home', go: openHome },
    ...topMenus.map((item) => ({
      key: item.id, id: item.id as string | null, label: item.name, icon: menuIcon(item, true), testId: `top-menu-${item.code}`,
      go: () => void open(item),
    })),
  ];
  const shown = Math.min(fit.shown, entries.length);
  const overflow = entries.slice(shown);
  const activeKey = active ?? HOME_KEY;
  const moreActive = overflow.some((e) => e.key === activeKey);

  const item = (e: (typeof entries)[number], measuring: boolean) => (
    <button
      key={e.key}
      type="button"
      className="shell-top-menu-item"
      tabIndex={measuring ? -1 : undefined}
      aria-current={measuring ? undefined : e.key === activeKey}
      onClick={measuring ? undefined : e.go}
      data-testid={measuring ? undefined : e.testId}
    >
      {e.icon && <span aria-hidden="true">{e.icon}</span>}
      {e.label}
    </button>
  );
  const moreItems: MenuProps['items'] = overflow.map((e) => ({
    key: e.key,
    icon: e.icon ? <span aria-hidden="true">{e.icon}</span> : undefined,
    label: <span data-testid={e.testId} aria-current={e.key === activeKey}>{e.label}</span>,
  }));
  const moreLabel = (
    <>
      {t('chrome.header.more')}
      <DownOutlined aria-hidden="true" style={{ fontSize: 10 }} />
    </>
  );

  return (
    <nav className="shell-top-menu" aria-label={t('chrome.header.topMenu')} data-testid="top-menu" ref={nav} style={{ minWidth: fit.moreWidth }}>
      {entries.slice(0, shown).map((e) => item(e, false))}
      {overflow.length > 0 && (
        <Dropdown
          trigger={['click']}
          placement="bottomRight"
          menu={{
            items: moreItems,
            selectable: true,
            selectedKeys: moreActive ? [activeKey] : [],
            onClick: ({ key }) => overflow.find((e) => e.key === key)?.go(),
          }}
        >
          <button type="button" className="shell-top-menu-item" aria-current={moreActive} data-testid="top-menu-more">
            {moreLabel}
          </button>
        </Dropdown>
      )}
      {/* every item at its natural width, out of sight, to decide what fits */}
      <div className="shell-top-menu-measure" ref={measure} aria-hidden="true" inert>
        {entries.map((e) => item(e, true))}
        <button type="button" className="shell-top-menu-item" tabIndex={-1}>
          {moreLabel}
        </button>
      </div>
    </nav>
  );
}
