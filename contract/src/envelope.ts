/** The response envelope every endpoint (except the OAuth token endpoint) answers with. */
export interface R<T = unknown> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}

/** The codes in use; the HTTP status always equals the code. */
export const Code = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  TOO_MANY: 429,
  SERVER_ERROR: 500,
} as const;

export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
  /** false when total is an estimate: lists larger than the server's exact-count limit (10,000 by default) */
  totalExact?: boolean;
}

/** Trees (`tree`, `lazy-tree`, `grant-tree`…) answer nodes of this shape. */
export interface TreeNode {
  id: string;
  parentId: string;
  title: string;
  key: string;
  value: string;
  /** a tree that keeps them (departments, regions): the ids from the root to the parent, comma-joined, as BladeX answers */
  ancestors?: string;
  hasChildren?: boolean;
  children?: TreeNode[];
}

/** OAuth2 token object: the one answer not wrapped in the envelope. */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token: string;
  expires_in: number;
  scope: string;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  role_id: string;
  post_id: string;
  account: string;
  user_name: string;
  real_name: string;
  nick_name: string;
  avatar: string;
  role_name: string;
  oauth_id: string;
  client_id: string;
  license: string;
  detail: { type: string };
}

export interface TokenError {
  error: string;
  error_description: string;
  code: number;
  success: false;
  msg: string;
}

/** A node of `menu/routes`. */
export interface MenuRoute {
  id: string;
  parentId: string;
  code: string;
  name: string;
  /** the name in both languages, so the console can switch language without reloading */
  i18n: { zh: string; en: string };
  alias: string;
  path: string;
  source: string;
  sort: number;
  category: number;
  action: number;
  isOpen: number;
  component: string;
  remark: string;
  children?: MenuRoute[];
}

/** A node of `menu/buttons`: menus hold their buttons as children; button leaves carry the permission codes. */
export interface MenuButton {
  id: string;
  parentId: string;
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  action: number;
  sort: number;
  category: number;
  children?: MenuButton[];
}

export interface TopMenu {
  id: string;
  code: string;
  name: string;
  source: string;
  path: string;
  sort: number;
}

export interface DictItem {
  id: string;
  code: string;
  dictKey: string;
  dictValue: string;
  sort: number;
  remark: string;
}

/** Front-end error records posted to `POST /api/blade-auth/oauth/logout`. */
export interface WebErrorRecord {
  type: string;
  message: string;
  stack?: string;
  info?: string;
  url: string;
  time: string;
}
