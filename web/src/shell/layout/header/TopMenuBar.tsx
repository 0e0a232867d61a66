import type { TopMenu } from '@console/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient } from '../../../api/queryClient';
import { useTopMenuChoice } from '../../../store/topMenu';
import { HOME_PATH } from '../../paths';
import { menuIcon } from '../menuIcons';
import { firstPagePath } from './firstPage';
import { topMenuRoutesQuery, useTopMenus } from './topMenu';

/**
 * Spec 2 top menu: "home" plus the server's top menus. Choosing one limits the sidebar to its part of
 * the menu (`menu/routes?topMenuId=`) and opens its first page; "home" restores the whole menu.
 * Hidden when the server has no top menus.
 */
export function TopMenuBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: topMenus = [] } = useTopMenus();
  const chosen = useTopMenuChoice((s) => s.topMenuId);
  const choose = useTopMenuChoice((s) => s.choose);
  if (topMenus.length === 0) return null;

  const current = topMenus.some((m) => m.id === chosen) ? chosen : null;

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

  return (
    <nav className="shell-top-menu" aria-label={t('chrome.header.topMenu')} data-testid="top-menu">
      <button type="button" className="shell-top-menu-item" aria-current={current === null} onClick={openHome} data-testid="top-menu-home">
        {t('chrome.header.topMenuHome')}
      </button>
      {topMenus.map((item) => (
        <button
          key={item.id}
          type="button"
          className="shell-top-menu-item"
          aria-current={current === item.id}
          onClick={() => void open(item)}
          data-testid={`top-menu-${item.code}`}
        >
          {menuIcon(item, true)}
          {item.name}
        </button>
      ))}
    </nav>
  );
}
