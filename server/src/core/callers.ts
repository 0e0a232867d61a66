/** Who calls: a console user, a user of the phone app, an OAuth client. No imports, so any module can name them. */

/** The signed-in caller, from a verified access token. */
export interface AuthUser {
  tenantId: string;
  userId: string;
  /** the active department (first of the user's departments unless switched) */
  deptId: string;
  roleIds: string[];
  roleAliases: string[];
  account: string;
  userName: string;
  clientId: string;
  sessionId: string;
}

/** A signed-in user of the vendor's phone app (an after-sales user), from a verified app token. */
export interface AppCaller {
  tenantId: string;
  appUserId: string;
  phone: string;
}

export interface ClientInfo {
  clientId: string;
  grantTypes: string[];
  accessTokenValidity: number;
  refreshTokenValidity: number;
}
