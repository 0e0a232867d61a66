import type { TokenResponse } from '@console/contract/envelope';
import { API } from '@console/contract/paths';
import { md5 } from 'js-md5';
import { requestBare } from './client';

/** The password grant, apart from api/auth.ts so that MD5 loads with the login page, not with every page. */

export interface PasswordCredentials {
  tenantId: string;
  username: string;
  /** as typed; only its MD5 hex digest leaves the browser */
  password: string;
  /** captcha mode: the captcha's key and the code the user read from it (the captcha grant) */
  captcha?: { key: string; code: string };
}

export function passwordGrant({ tenantId, username, password, captcha }: PasswordCredentials): Promise<TokenResponse> {
  return requestBare<TokenResponse>(API.token, {
    method: 'POST',
    headers: { 'Tenant-Id': tenantId, ...(captcha ? { 'Captcha-Key': captcha.key, 'Captcha-Code': captcha.code } : {}) },
    form: { grant_type: captcha ? 'captcha' : 'password', tenantId, username, password: md5(password), scope: 'all', type: 'account' },
  });
}
