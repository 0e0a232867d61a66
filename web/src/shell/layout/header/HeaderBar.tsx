import { EllipsisOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Badge, Layout, Popover } from 'antd';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../store/session';
import { useSettings } from '../../../store/settings';
import { LanguageSwitch } from '../../LanguageSwitch';
import { PrimaryColorPicker } from '../../theme/PrimaryColorPicker';
import { ThemeChooser } from '../../theme/ThemeChooser';
import { UserMenu } from '../UserMenu';
import { FullscreenToggle } from './FullscreenToggle';
import { FOLD, Foldable, FoldedBadgeContext, HeaderFoldContext, MAX_FOLD } from './headerFold';
import { HeaderIconButton } from './HeaderIconButton';
import { LockButton } from './LockButton';
import { MenuSearch } from './MenuSearch';
import { useTopMenus } from './topMenu';
import { TopMenuBar } from './TopMenuBar';
import './header.css';

export interface HeaderBarProps {
  /**
   * Items placed between the menu search and the colour picker: the testing and bug-log icons, the
   * notice popover and the server check. Each should be a `HeaderIconButton` (or use its class
   * `shell-header-btn`) so that it takes the theme's header colours, wrapped in a `Foldable` (headerFold.tsx)
   * saying when it moves into the "more tools" menu of a narrow header.
   */
  tools?: ReactNode;
}

/** Whether the top menu's items, at their natural widths, are wider than the room the bar gives them. */
function topMenuCrowded(header: HTMLElement): boolean {
  const nav = header.querySelector<HTMLElement>('.shell-top-menu');
  const row = nav?.querySelector('.shell-top-menu-measure');
  if (!nav || !row) return false;
  const items = [...row.children].slice(0, -1); // the last one measures "more"
  const need = items.reduce((sum, item) => sum + item.getBoundingClientRect().width, 0);
  return need > nav.clientWidth + 0.5;
}

/**
 * The header's fold level: 0 while everything fits, else the lowest level at which nothing overflows.
 * It is found by folding one level at a time before paint; a wider header starts again from 0.
 */
function useFoldLevel(header: React.RefObject<HTMLElement | null>, deps: unknown[]) {
  const [fit, setFit] = useState({ level: 0, round: 0 });
  const width = useRef(0);
  const refit = useCallback(() => setFit((f) => ({ level: 0, round: f.round + 1 })), []);

  useLayoutEffect(() => {
    const el = header.current;
    if (!el || fit.level >= MAX_FOLD) return;
    // the top menu's items come before the least used tools: fold those while the menu has items in "more"
    if (el.scrollWidth > el.clientWidth || (fit.level < FOLD.look && topMenuCrowded(el))) setFit((f) => ({ ...f, level: f.level + 1 }));
  }, [fit, header]);

  useLayoutEffect(() => {
    const el = header.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      const now = el.clientWidth;
      if (now === width.current) return;
      const grew = now > width.current;
      width.current = now;
      if (grew) refit();
      else setFit((f) => ({ ...f, round: f.round + 1 }));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [header, refit]);

  // content whose width changes (language, user name, top menus) fits again from the start
  useLayoutEffect(refit, deps);
  return fit.level;
}

/**
 * Spec 2 top bar, left to right: collapse toggle, top menu, menu search, the tools, colour picker,
 * lock, theme chooser, language switch, full screen, user menu. On a narrow header the tools fold, the
 * least used first, into a "more tools" menu at the end (before the user menu); nothing overflows. The
 * least used tools also fold to give the top menu room for its items.
 */
export function HeaderBar({ tools }: HeaderBarProps) {
  const { t, i18n } = useTranslation();
  const collapsed = useSettings((s) => s.collapsed);
  const setCollapsed = useSettings((s) => s.setCollapsed);
  const userName = useSession((s) => s.userInfo?.real_name ?? s.userInfo?.user_name ?? '');
  const header = useRef<HTMLElement>(null);
  const topMenuCount = useTopMenus().data?.length ?? 0;
  const level = useFoldLevel(header, [i18n.language, userName, collapsed, topMenuCount]);
  const [moreOpen, setMoreOpen] = useState(false);
  const [badges, setBadges] = useState<Record<string, number>>({});
  const reportBadge = useCallback((key: string, count: number) => setBadges((b) => (b[key] === count ? b : { ...b, [key]: count })), []);
  const folded = Object.values(badges).reduce((a, n) => a + n, 0);

  const folding = (inBar: boolean) => (
    <>
      {tools && (
        <div className="shell-header-group" data-testid={inBar ? 'header-tools' : undefined}>
          {tools}
        </div>
      )}
      <div className="shell-header-group">
        <Foldable at={FOLD.look}>
          <PrimaryColorPicker />
        </Foldable>
        <Foldable at={FOLD.look}>
          <LockButton />
        </Foldable>
        <Foldable at={FOLD.look}>
          <ThemeChooser />
        </Foldable>
      </div>
      <Foldable at={FOLD.lang}>
        <LanguageSwitch />
      </Foldable>
      <Foldable at={FOLD.rare}>
        <FullscreenToggle />
      </Foldable>
    </>
  );
  const bar = useMemo(() => ({ level, place: 'bar' as const }), [level]);
  const more = useMemo(() => ({ level, place: 'more' as const }), [level]);

  return (
    <Layout.Header className="shell-header" data-testid="shell-header" data-fold={level} ref={header}>
      <HeaderIconButton
        label={t(collapsed ? 'layout.expand' : 'layout.collapse')}
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={() => setCollapsed(!collapsed)}
        aria-expanded={!collapsed}
        data-testid="sidebar-toggle"
      />
      <TopMenuBar />
      <MenuSearch />
      <HeaderFoldContext.Provider value={bar}>{folding(true)}</HeaderFoldContext.Provider>
      {level > 0 && (
        <Popover
          trigger="click"
          placement="bottomRight"
          arrow={false}
          open={moreOpen}
          onOpenChange={setMoreOpen}
          // the folded tools stay mounted (and up to date: fresh) while the menu is closed: their badges still count
          forceRender
          fresh
          content={
            <FoldedBadgeContext.Provider value={reportBadge}>
              <HeaderFoldContext.Provider value={more}>
                <div className="shell-header-more" data-testid="header-more-panel">
                  {folding(false)}
                </div>
              </HeaderFoldContext.Provider>
            </FoldedBadgeContext.Provider>
          }
        >
          <span data-testid="header-more-badge" data-count={folded}>
            <Badge dot={folded > 0} offset={[-6, 6]}>
              <HeaderIconButton
                label={t('chrome.header.moreTools')}
                icon={<EllipsisOutlined />}
                aria-haspopup="true"
                aria-expanded={moreOpen}
                data-testid="header-more"
              />
            </Badge>
          </span>
        </Popover>
      )}
      <UserMenu />
    </Layout.Header>
  );
}
