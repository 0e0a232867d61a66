import type { MenuButton, MenuRoute, TokenResponse } from '@console/contract/envelope';
import { API } from '@console/contract/paths';
import { md5 } from 'js-md5';
import type { UserInfo } from '../store/session';
import { request, requestBare } from './client';

/** The calls of sign-in, token refresh, sign-out and the navigation data loaded after sign-in. */

export interface PasswordCredentials {
  tenantId: string;
  username: string;
  /** as typed; only its MD5 hex digest leaves the browser */
  password: string;
}

export function passwordGrant({ tenantId, username, password }: PasswordCredentials): Promise<TokenResponse> {
  return requestBare<TokenResponse>(API.token, {
    method: 'POST',
    headers: { 'Tenant-Id': tenantId },
    form: { grant_type: 'password', tenantId, username, password: md5(password), scope: 'all', type: 'account' },
  });
}

/** Refresh tokens are single-use: the answer carries the next one. */
export function refreshGrant(refreshToken: string, user: UserInfo): Promise<TokenResponse> {
  return requestBare<TokenResponse>(API.token, {
    method: 'POST',
    headers: { 'Tenant-Id': user.tenant_id },
    form: {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      tenantId: user.tenant_id,
      deptId: user.dept_id,
      roleId: user.role_id,
      scope: 'all',
    },
    silent: true,
  });
}

/** Revokes the session on the server; failures do not matter, local state is cleared anyway. */
export function revokeSession(): Promise<unknown> {
  return request<unknown>(API.logout, { silent: true });
}

export function fetchMenuRoutes(): Promise<MenuRoute[]> {
  return request<MenuRoute[]>(API.menuRoutes);
}

export function fetchMenuButtons(): Promise<MenuButton[]> {
  return request<MenuButton[]>(API.menuButtons);
}
