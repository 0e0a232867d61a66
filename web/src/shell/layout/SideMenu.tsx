import type { MenuRoute } from '@console/contract';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLang } from '../../i18n';
import { useSettings } from '../../store/settings';
import { HOME_PATH } from '../paths';
import { useSidebarMenu } from './header/topMenu';
import { homeIcon, menuIcon } from './menuIcons';
import { menuKeyOf, menuLabel, menuTarget, menuTrail, sidebarTree, sortedChildren } from './menuTree';

type Item = Required<MenuProps>['items'][number];

/** The sidebar: home, then the server's menu tree (or the chosen top menu's part) in the UI language. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const lang = useLang();
  // the whole menu, or the chosen top menu's part of it
  const menu = useSidebarMenu();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const tree = useMemo(() => sidebarTree(menu), [menu]);
  const selectedKey = useMemo(() => menuKeyOf(tree, pathname), [tree, pathname]);
  const trail = useMemo(() => menuTrail(tree, selectedKey), [tree, selectedKey]);
  const openKeys = useSettings((s) => s.openMenus);
  const setOpenKeys = useSettings((s) => s.setOpenMenus);

  // Only the branch of the current page is open by default: arriving in another branch (or at sign-in, or
  // after a reload) opens it and closes the others. In between, the user's own opening and closing stand;
  // a page outside the menu tree (home) leaves them as they are.
  const branch = useRef<string | null>(null);
  useEffect(() => {
    const ancestors = trail.slice(0, -1).map((n) => n.id);
    const key = ancestors.join('/');
    if (ancestors.length === 0 || key === branch.current) return;
    branch.current = key;
    setOpenKeys(ancestors);
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
    const target = menuTarget(node);
    if (target.kind === 'window') window.open(target.url, '_blank', 'noopener');
    else navigate(target.to);
  };

  return (
    <Menu
      mode="inline"
      // colours come from the theme (siderTheme in shell/theme/themeStyle.ts)
      theme="light"
      items={items}
      selectedKeys={[selectedKey]}
      // antd keeps submenus closed while collapsed; remember what was open for when it expands
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={onClick}
      data-testid="side-menu"
    />
  );
}
