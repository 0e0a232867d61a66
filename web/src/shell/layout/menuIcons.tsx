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
import type { ReactNode } from 'react';

/**
 * Sidebar icons. A menu's `source` is, as in BladeX, a class of Saber's iconfont (`iconfont iconicon_setting`),
 * shown here as the antd icon mapped to it below; an @ant-design/icons name ("SettingOutlined") or its short
 * form ("setting"), as earlier versions stored, still works. Anything else, or nothing, gets a default icon
 * (Saber shows `icon-caidan` then): a root menu's is the icon of its area code.
 * Only this curated set is bundled (importing every icon would weigh megabytes).
 */
const ICONS: Record<string, ReactNode> = {
  api: <ApiOutlined aria-hidden="true" />,
  appstore: <AppstoreOutlined aria-hidden="true" />,
  audit: <AuditOutlined aria-hidden="true" />,
  barchart: <BarChartOutlined aria-hidden="true" />,
  build: <BuildOutlined aria-hidden="true" />,
  cloud: <CloudOutlined aria-hidden="true" />,
  control: <ControlOutlined aria-hidden="true" />,
  customerservice: <CustomerServiceOutlined aria-hidden="true" />,
  dashboard: <DashboardOutlined aria-hidden="true" />,
  database: <DatabaseOutlined aria-hidden="true" />,
  desktop: <DesktopOutlined aria-hidden="true" />,
  environment: <EnvironmentOutlined aria-hidden="true" />,
  filetext: <FileTextOutlined aria-hidden="true" />,
  folder: <FolderOutlined aria-hidden="true" />,
  home: <HomeOutlined aria-hidden="true" />,
  lock: <LockOutlined aria-hidden="true" />,
  mobile: <MobileOutlined aria-hidden="true" />,
  notification: <NotificationOutlined aria-hidden="true" />,
  partition: <PartitionOutlined aria-hidden="true" />,
  safety: <SafetyOutlined aria-hidden="true" />,
  setting: <SettingOutlined aria-hidden="true" />,
  shop: <ShopOutlined aria-hidden="true" />,
  solution: <SolutionOutlined aria-hidden="true" />,
  team: <TeamOutlined aria-hidden="true" />,
  tool: <ToolOutlined aria-hidden="true" />,
  user: <UserOutlined aria-hidden="true" />,
  wallet: <WalletOutlined aria-hidden="true" />,
};

/**
 * Saber's iconfont classes (its icon list: the general `iconicon_*` set and the system `icon-*` set, as
 * BladeX's blade_menu seed uses them) → the icon shown for them. Classes not listed get the default.
 */
const ICONFONT: Record<string, string> = {
  iconicon_airplay: 'desktop',
  iconicon_sms: 'notification',
  iconicon_notice: 'notification',
  iconicon_message: 'solution',
  iconicon_setting: 'setting',
  iconicon_community_line: 'control',
  iconicon_principal: 'user',
  iconicon_addperson: 'user',
  iconicon_namecard: 'user',
  iconicon_group: 'team',
  iconicon_boss: 'audit',
  iconicon_safety: 'safety',
  iconicon_secret: 'lock',
  iconicon_subordinate: 'partition',
  iconicon_affiliations_li: 'database',
  iconicon_addresslist: 'filetext',
  iconicon_addressbook: 'filetext',
  iconicon_doc: 'filetext',
  iconicon_details: 'filetext',
  iconicon_study: 'filetext',
  iconicon_savememo: 'filetext',
  iconicon_work: 'solution',
  iconicon_task: 'audit',
  iconicon_task_done: 'audit',
  iconicon_mobilephone: 'mobile',
  iconicon_phone: 'mobile',
  iconicon_GPS: 'environment',
  iconicon_cloud_history: 'cloud',
  iconicon_coinpurse_line: 'wallet',
  iconicon_redpacket: 'wallet',
  iconicon_shakehands: 'customerservice',
  iconicon_voipphone: 'customerservice',
  iconicon_dispose: 'tool',
  iconicon_discovery: 'appstore',
  'icon-caidan': 'appstore',
  'icon-huanyingye': 'home',
  'icon-yonghu': 'user',
  'icon-mima': 'lock',
  'icon-quanxian': 'safety',
  'icon-shouji': 'mobile',
  'icon-canshu': 'control',
  'icon-yanzhengma': 'dashboard',
  'icon-shujuzhanshi2': 'barchart',
  'icon-tubiao': 'barchart',
  'icon-rizhi': 'filetext',
  'icon-rizhi1': 'filetext',
  'icon-biaodan': 'filetext',
  'icon-biaoge': 'database',
  'icon-caidanguanli': 'partition',
  'icon-wxbgongju': 'tool',
  'icon-debug': 'tool',
  'icon-bug': 'tool',
  'icon-iframe': 'api',
};

/** The icon every menu without a known one gets (Saber's `icon-caidan`). */
const DEFAULT_ICON = 'appstore';

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

/** `table[key]` when the table itself has it (a value such as "constructor" names nothing). */
function own<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The curated icon named by a `source`: an iconfont class (`iconfont iconicon_setting`) or an antd name. */
function iconKeyOf(source: string | null | undefined): string | undefined {
  const classes = (source ?? '').trim().split(/\s+/).filter((c) => c !== '' && c !== 'iconfont');
  for (const c of classes) {
    const key = own(ICONFONT, c);
    if (key) return key;
  }
  const [only] = classes;
  if (classes.length !== 1 || only === undefined || /^icon(icon_|-)/.test(only)) return undefined;
  const key = normalise(only);
  return own(ICONS, key) === undefined ? undefined : key;
}

/** A menu's (or top menu's) icon: the one its `source` names, else its area's (root menus), else the default. */
export function menuIcon(node: { source?: string | null; code: string }, isRoot: boolean): ReactNode {
  const key = iconKeyOf(node.source) ?? (isRoot ? own(AREA_ICONS, node.code) : undefined) ?? DEFAULT_ICON;
  return own(ICONS, key) ?? ICONS[DEFAULT_ICON];
}

export const homeIcon = ICONS.home;
