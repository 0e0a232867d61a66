import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** Calls to the server from the test process (not the browser): setting up and restoring state. */

const BASIC = `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`;

/** A port nothing listens on now, for a server of the test's own. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const md5 = (s: string) => createHash('md5').update(s).digest('hex');

export interface Envelope<T> {
  code: number;
  success: boolean;
  msg: string;
  data: T;
}

/** A password grant; resolves with the access token, or null when the server refuses. */
export async function apiToken(baseUrl: string, tenantId: string, username: string, password: string): Promise<string | null> {
  const res = await fetch(`${baseUrl}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { Authorization: BASIC, 'Tenant-Id': tenantId, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', tenantId, username, password: md5(password), scope: 'all', type: 'account' }),
  });
  const body = (await res.json()) as { access_token?: string };
  return body.access_token ?? null;
}

export async function api<T>(baseUrl: string, token: string | null, path: string, init: { method?: 'GET' | 'POST'; json?: unknown } = {}): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Authorization: BASIC };
  if (token) headers['Blade-Auth'] = `bearer ${token}`;
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return (await res.json()) as Envelope<T>;
}

/** A password grant with a wrong password sent from another loopback address (the budgets are per address). */
export function wrongPasswordFrom(localAddress: string, baseUrl: string, tenantId: string, username: string): Promise<number> {
  const body = new URLSearchParams({ grant_type: 'password', tenantId, username, password: md5(`wrong-${Math.random()}`) }).toString();
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}/api/blade-auth/oauth/token`, {
      method: 'POST', localAddress,
      headers: { Authorization: BASIC, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}
