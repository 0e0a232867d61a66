import type { MenuButton, MenuRoute, TokenResponse, TopMenu } from '@console/contract/envelope';
import { API } from '@console/contract/paths';
import type { UserInfo } from '../store/session';
import { request, requestBare } from './client';

/** The calls of token refresh, sign-out and the navigation data loaded after sign-in (sign-in itself: passwordGrant.ts). */

/** The department and role to act as (switch mode); without one the token keeps the current ones. */
export interface Identity {
  deptId: string;
  roleId: string;
}

/**
 * Refresh tokens are single-use: the answer carries the next one. The department and role go both as
 * parameters and as the Dept-Id / Role-Id headers. A token that was issued for every role the user holds
 * names them all (`a,b`); the server takes one role id, so none is sent then and all are kept.
 */
export function refreshGrant(refreshToken: string, user: UserInfo, identity?: Identity): Promise<TokenResponse> {
  const deptId = identity?.deptId ?? user.dept_id;
  const roleId = identity?.roleId ?? (user.role_id.includes(',') ? '' : user.role_id);
  const headers: Record<string, string> = { 'Tenant-Id': user.tenant_id };
  const form: Record<string, string> = {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    tenantId: user.tenant_id,
    scope: 'all',
  };
  if (deptId) {
    form.deptId = deptId;
    headers['Dept-Id'] = deptId;
  }
  if (roleId) {
    form.roleId = roleId;
    headers['Role-Id'] = roleId;
  }
  return requestBare<TokenResponse>(API.token, { method: 'POST', headers, form, silent: true });
}

/** Revokes the session on the server; failures do not matter, local state is cleared anyway. */
export function revokeSession(): Promise<unknown> {
  return request<unknown>(API.logout, { silent: true });
}

/** The user's menu tree; with a top menu, only the part of the tree that top menu covers. */
export function fetchMenuRoutes(topMenuId?: string): Promise<MenuRoute[]> {
  return request<MenuRoute[]>(API.menuRoutes, topMenuId ? { query: { topMenuId } } : {});
}

/** Silent: the top menu is optional chrome; without it the sidebar simply shows the whole menu. */
export function fetchTopMenus(): Promise<TopMenu[]> {
  return request<TopMenu[]>(API.topMenu, { silent: true });
}

export function fetchMenuButtons(): Promise<MenuButton[]> {
  return request<MenuButton[]>(API.menuButtons);
}
