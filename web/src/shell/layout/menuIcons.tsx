import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  BuildOutlined,
  CloudOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  EnvironmentOutlined,
  FileTextOutlined,
  FolderOutlined,
  HomeOutlined,
  LockOutlined,
  MobileOutlined,
  NotificationOutlined,
  PartitionOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  ToolOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { MenuRoute } from '@console/contract';
import type { ReactNode } from 'react';

/**
 * Sidebar icons. A menu's `source` names an icon: an @ant-design/icons name ("SettingOutlined") or
 * its short form ("setting"). Root menus without a known source get the icon of their area code.
 * Only this curated set is bundled (importing every icon would weigh megabytes).
 */
const ICONS: Record<string, ReactNode> = {
  api: <ApiOutlined />,
  appstore: <AppstoreOutlined />,
  audit: <AuditOutlined />,
  barchart: <BarChartOutlined />,
  build: <BuildOutlined />,
  cloud: <CloudOutlined />,
  control: <ControlOutlined />,
  customerservice: <CustomerServiceOutlined />,
  dashboard: <DashboardOutlined />,
  database: <DatabaseOutlined />,
  desktop: <DesktopOutlined />,
  environment: <EnvironmentOutlined />,
  filetext: <FileTextOutlined />,
  folder: <FolderOutlined />,
  home: <HomeOutlined />,
  lock: <LockOutlined />,
  mobile: <MobileOutlined />,
  notification: <NotificationOutlined />,
  partition: <PartitionOutlined />,
  safety: <SafetyOutlined />,
  setting: <SettingOutlined />,
  shop: <ShopOutlined />,
  solution: <SolutionOutlined />,
  team: <TeamOutlined />,
  tool: <ToolOutlined />,
  user: <UserOutlined />,
  wallet: <WalletOutlined />,
};

/** Icon per root menu code (design/menus.md). */
const AREA_ICONS: Record<string, string> = {
  desk: 'desktop',
  system: 'setting',
  authority: 'safety',
  base: 'database',
  resource: 'cloud',
  monitor: 'dashboard',
  tool: 'tool',
  report: 'barchart',
  flow: 'partition',
  work: 'solution',
  production: 'build',
  product: 'shop',
  device: 'mobile',
  supplier: 'environment',
  postsale: 'customerservice',
  storage: 'database',
  setting: 'wallet',
};

function normalise(source: string): string {
  return source.toLowerCase().replace(/[^a-z]/g, '').replace(/(outlined|filled|twotone)$/, '');
}

export function menuIcon(node: Pick<MenuRoute, 'source' | 'code'>, isRoot: boolean): ReactNode {
  const named = node.source ? ICONS[normalise(node.source)] : undefined;
  if (named || !isRoot) return named;
  return ICONS[AREA_ICONS[node.code] ?? 'appstore'];
}

export const homeIcon = ICONS.home;
