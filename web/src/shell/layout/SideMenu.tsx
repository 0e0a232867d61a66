import type { MenuRoute } from '@console/contract';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLang } from '../../i18n';
import { useSession } from '../../store/session';
import { useSettings } from '../../store/settings';
import { HOME_PATH } from '../paths';
import { homeIcon, menuIcon } from './menuIcons';
import { menuLabel, menuTrail, opensNewWindow, sidebarTree, sortedChildren } from './menuTree';

type Item = Required<MenuProps>['items'][number];

/** The sidebar: home, then the server's menu tree in the UI language. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  const menu = useSession((s) => s.menu);
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const tree = useMemo(() => sidebarTree(menu), [menu]);
  const trail = useMemo(() => menuTrail(tree, pathname), [tree, pathname]);
  const openKeys = useSettings((s) => s.openMenus);
  const setOpenKeys = useSettings((s) => s.setOpenMenus);

  // Open the submenus leading to the current page (on arrival and after navigating by URL).
  useEffect(() => {
    const ancestors = trail.slice(0, -1).map((n) => n.id);
    const { openMenus } = useSettings.getState();
    if (!ancestors.every((k) => openMenus.includes(k))) setOpenKeys([...new Set([...openMenus, ...ancestors])]);
  }, [trail, setOpenKeys]);

  const items = useMemo(() => {
    const toItem = (node: MenuRoute, isRoot: boolean): Item => {
      const children = sortedChildren(node);
      const label = <span data-testid={`menu-${node.code}`}>{menuLabel(node, lang)}</span>;
      const icon = menuIcon(node, isRoot);
      return children.length > 0
        ? { key: node.id, label, icon, children: children.map((c) => toItem(c, false)) }
        : { key: node.path || node.id, label, icon };
    };
    const home: Item = { key: HOME_PATH, label: <span data-testid="menu-home">{t('layout.home')}</span>, icon: homeIcon };
    return [home, ...tree.map((n) => toItem(n, true))];
  }, [tree, lang, t]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === HOME_PATH) return navigate(HOME_PATH);
    const node = menuTrail(tree, key).at(-1);
    if (!node?.path) return;
    if (opensNewWindow(node)) window.open(node.path, '_blank', 'noopener');
    else navigate(node.path);
  };

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={[pathname]}
      // antd keeps submenus closed while collapsed; remember what was open for when it expands
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={onClick}
      data-testid="side-menu"
    />
  );
}
