/** Wire types of the shell's own calls (profile, agreements, uploads, registration, dashboard). */
import { MOBILE } from './textFormat.js';

/** `GET /api/blade-system/user/info`: the signed-in user's profile (never the password). */
export interface UserProfile {
  id: string;
  tenantId: string;
  account: string;
  name: string;
  realName: string;
  avatar: string;
  email: string;
  phone: string;
  sex: number | null;
  /** `yyyy-MM-dd HH:mm:ss` or '' */
  birthday: string;
  roleId: string;
  deptId: string;
  postId: string;
  /** the password is an initial or reset one: it must be changed before anything else is saved */
  passwordReset: boolean;
}

/**
 * `GET /api/blade-auth/oauth/user-info`: the signed-in user with the token's roles and the user's
 * departments. `roleName` and `deptName` (comma-joined) are in the caller's language: the English names
 * for Accept-Language en, the Chinese ones where a role or department has none.
 */
export interface SessionUserInfo {
  userId: string;
  tenantId: string;
  tenantName: string;
  account: string;
  name: string;
  realName: string;
  avatar: string;
  email: string;
  phone: string;
  sex: number | null;
  birthday: string;
  roleId: string;
  roleName: string;
  roleAlias: string;
  deptId: string;
  deptName: string;
  isPlatform: boolean;
}

/** `GET /api/blade-system/dept/select` rows: the departments the user belongs to (`deptName` in the caller's language). */
export interface DeptOption {
  id: string;
  deptName: string;
  parentId: string;
}

/** `GET /api/blade-system/role/select` rows: the roles the user holds (`roleName` in the caller's language). */
export interface RoleOption {
  id: string;
  roleName: string;
  roleAlias: string;
}

/** `GET /api/blade-system/tenant/info?domain=`: `{}` when no tenant owns the domain. */
export interface TenantByDomain {
  tenantId?: string;
  tenantName?: string;
  domain?: string;
  backgroundUrl?: string;
}

/** Agreement types: the user service agreement and the privacy policy. */
export const AGREEMENT_TYPES = ['user', 'privacy'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

/**
 * `GET /api/app/pub/get-agreement?type=user|privacy` (public): the latest published agreement in the
 * caller's language (Accept-Language), falling back to Chinese. `content` is sanitised HTML.
 */
export interface Agreement {
  id: string;
  type: AgreementType;
  language: string;
  title: string;
  content: string;
  version: string;
  /** `yyyy-MM-dd HH:mm:ss` */
  publishTime: string;
}

/** `POST /api/blade-resource/oss/endpoint/put-file` (multipart field `file`; `?kind=avatar` for avatars). */
export interface UploadedFile {
  /** URL the browser can load without a token (unguessable path) */
  link: string;
  domain: string;
  /** stored object name */
  name: string;
  originalName: string;
  attachId: string;
}

/** Avatar limits (spec 9), checked on the server by content, not by name. */
export const AVATAR_MAX_BYTES = 500 * 1024;
/** an image field's upload (product, model, brand pictures): any image format, by content */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Spec 5 "Phone helper": what is wrong with a mobile number, or null. The form and the server both ask it. */
export type PhoneProblem = 'empty' | 'length' | 'format';

export function phoneProblem(value: string | null | undefined): PhoneProblem | null {
  const phone = (value ?? '').trim();
  if (!phone) return 'empty';
  if (phone.length !== 11) return 'length';
  return MOBILE.test(phone) ? null : 'format';
}
export const AVATAR_TYPES = ['image/jpeg', 'image/png'] as const;

/** `POST /api/blade-user/register-guest` (public, JSON). `password` is the MD5 hex of what was typed. */
export interface RegisterGuestRequest {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  oauthId?: string;
}

/** User status (domain.md): 1 normal, 2 disabled, 3 awaiting approval. */
export const USER_STATUS = { normal: 1, disabled: 2, awaitingApproval: 3 } as const;

/** `GET /sc/ymy-ipc/back/check-server-status` (public). */
export interface ServerStatus {
  online: boolean;
  /** database round trip, ms */
  dbMillis: number;
  version: string;
  /** `yyyy-MM-dd HH:mm:ss` server time */
  time: string;
}

/** One day of the dashboard series: `day` is `yyyy-MM-dd` in the display zone. */
export interface DayCount {
  day: string;
  count: number;
}

/**
 * `GET /api/blade-desk/dashboard/overview?days=14` (any signed-in user; figures of the caller's tenant,
 * of every tenant for the platform tenant 000000). Series cover every day of the window, zeros included.
 */
export interface DashboardOverview {
  days: number;
  users: { total: number; awaitingApproval: number };
  tenants: { total: number };
  signIns: DayCount[];
  apiCalls: DayCount[];
  errors: DayCount[];
  /** sessions signed in now (not revoked, not expired) */
  activeSessions: number;
}

/**
 * `GET /api/app/pub/console-config` (public): switches the console reads at start (spec 9 defaults:
 * captcha off, switch mode off, tenant mode on). Set on the server by SWITCH_MODE, CAPTCHA_MODE,
 * TENANT_MODE, DEFAULT_TENANT_ID and TZ_DISPLAY.
 */
export interface ConsoleConfig {
  switchMode: boolean;
  captchaMode: boolean;
  tenantMode: boolean;
  defaultTenantId: string;
  /**
   * IANA zone of the `yyyy-MM-dd HH:mm:ss` timestamps the server answers and accepts (TZ_DISPLAY,
   * default Asia/Shanghai): the console shows and takes times in it, whatever the browser's zone.
   */
  timeZone: string;
  /**
   * how often the console asks for new cross-region warnings (spec 9: 180000 ms), where it asks at all (tenants
   * 541742 and 000000, with the warnings' menu: `REGION_ALARM`)
   */
  regionAlarmMs: number;
}
