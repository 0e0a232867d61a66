/**
 * Credentials never reach a log: the request log (pino), the API log and the error log all pass
 * request parameters through here. The client's MD5 of a password is the credential itself.
 */
const SENSITIVE_KEY = /(pass(word)?|passwd|pwd|secret|token|authorization|bladeauth|captcha|privatekey|accesskey|secretkey|apikey|credential|signature)/;
/** Keys that carry a credential only on the OAuth endpoints (`code` of an authorization-code grant). */
const OAUTH_KEYS = new Set(['code', 'state']);
export const MASK = '******';
const MAX_DEPTH = 6;
const MAX_ITEMS = 50;

function normalise(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSensitiveKey(key: string, path = ''): boolean {
  const k = normalise(key);
  return SENSITIVE_KEY.test(k) || (path.includes('/oauth/') && OAUTH_KEYS.has(k));
}

/** A copy of request parameters for a log: sensitive values masked, depth and width bounded (never throws). */
export function maskParams(value: unknown, path = '', depth = 0): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'string' && value.length > 2000 ? `${value.slice(0, 2000)}…` : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => maskParams(v, path, depth + 1));
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, v] of Object.entries(value)) {
    if (n++ >= MAX_ITEMS) {
      out['…'] = '…';
      break;
    }
    out[k] = isSensitiveKey(k, path) ? MASK : maskParams(v, path, depth + 1);
  }
  return out;
}

/** A URL with the values of sensitive query parameters masked (`?password=******&tenantId=000000`). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = url.slice(0, q);
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      /* keep the raw key */
    }
    return eq >= 0 && isSensitiveKey(key, path) ? `${rawKey}=${MASK}` : pair;
  });
  return `${path}?${query.join('&')}`;
}
