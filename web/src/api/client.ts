import type { R } from '@console/contract/envelope';
import { CONSOLE_CLIENT } from '@console/contract/paths';
import { clearLocalSession } from '../auth/localSession';
import { noteSessionExpired } from '../auth/wantedPath';
import { i18n } from '../i18n';
import { toastError } from '../shell/feedback';
import { useSession } from '../store/session';
import { useSettings } from '../store/settings';

/**
 * The one HTTP client of the console. Every call carries the client's Basic auth, the user's token
 * (Blade-Auth) and the UI language; every failure is toasted (unless `silent`) and rejected with an
 * ApiError. A 401 signs the user out locally (the route guard then sends them to /login, which says that
 * the session has expired).
 */

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  method?: 'GET' | 'POST';
  query?: Query;
  /** sent as a JSON body */
  json?: unknown;
  /** sent as an x-www-form-urlencoded body (keeps secrets out of URLs and access logs) */
  form?: Record<string, string>;
  /** sent as a multipart/form-data body (file uploads); the browser writes its Content-Type */
  multipart?: FormData;
  headers?: Record<string, string>;
  /** do not toast a failure; the caller reports it */
  silent?: boolean;
  signal?: AbortSignal;
}

export class ApiError extends Error {
  constructor(
    message: string,
    /** the envelope code (the HTTP status when there is none; 0 for network failures) */
    readonly code: number,
    /** the envelope data: for validation failures (400) a `{ field: message }` map */
    readonly data?: unknown,
    /** the OAuth `error` of a token-endpoint failure (`invalid_grant`, `captcha_required`, …) */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const BASIC_AUTH = `Basic ${btoa(`${CONSOLE_CLIENT.id}:${CONSOLE_CLIENT.secret}`)}`;

/** Statuses in this range carry a JSON answer to read; anything else is a transport failure. */
const ANSWER_STATUS = { min: 200, max: 500 } as const;

type Payload = Record<string, unknown>;

function isPayload(v: unknown): v is Payload {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function headersFor(opts: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: BASIC_AUTH,
    'Accept-Language': useSettings.getState().lang,
    ...opts.headers,
  };
  const token = useSession.getState().token;
  if (token) headers['Blade-Auth'] = `bearer ${token.content}`;
  if (opts.json !== undefined) headers['Content-Type'] = 'application/json';
  return headers;
}

/** The headers of a call (client, token, language), for a fetch of its own (a file download). */
export function callHeaders(): Record<string, string> {
  return headersFor({});
}

function bodyOf(opts: RequestOptions): BodyInit | undefined {
  if (opts.multipart) return opts.multipart;
  if (opts.form) return new URLSearchParams(opts.form);
  if (opts.json !== undefined) return JSON.stringify(opts.json);
  return undefined;
}

/** The text to show for a failed answer: OAuth errors carry error_description, the envelope msg. */
function failureText(payload: Payload): string {
  for (const key of ['error_description', 'msg'] as const) {
    const v = payload[key];
    if (typeof v === 'string' && v.trim()) return v;
  }
  return i18n.t('api.unknownError');
}

function fail(opts: RequestOptions, sentWith: string | null, message: string, code: number, data?: unknown, reason?: string): never {
  // A 401 to a call sent with another token (one answered after the user signed in again, or after a
  // refresh) says nothing about the current session: it neither ends it nor is worth a toast.
  const stale = code === 401 && (useSession.getState().token?.content ?? null) !== sentWith;
  if (code === 401 && !stale) {
    // the login page says why the user is there (a session that was never here did not expire)
    if (useSession.getState().token) noteSessionExpired(true, sentWith);
    clearLocalSession();
  }
  // a warning to confirm (409 with `data.confirm`) is asked about by the form that sent it, not toasted
  const warning = code === 409 && isPayload(data) && typeof data.confirm === 'string';
  if (!opts.silent && !stale && !warning) toastError(message);
  throw new ApiError(message, code, data, reason);
}

/** Sends a call and returns its JSON answer when its code is 200. */
async function send(path: string, opts: RequestOptions): Promise<Payload> {
  const sentWith = useSession.getState().token?.content ?? null;
  const failed = (message: string, code: number, data?: unknown, reason?: string) => fail(opts, sentWith, message, code, data, reason);
  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers: headersFor(opts),
      body: bodyOf(opts),
      credentials: 'include',
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return failed(i18n.t('api.networkError'), 0);
  }
  if (res.status < ANSWER_STATUS.min || res.status > ANSWER_STATUS.max) {
    return failed(res.statusText || i18n.t('api.unknownError'), res.status);
  }
  let payload: unknown;
  try {
    payload = await res.json();
  } catch {
    return failed(res.ok ? i18n.t('api.badResponse') : res.statusText || i18n.t('api.unknownError'), res.status);
  }
  if (!isPayload(payload)) return failed(i18n.t('api.badResponse'), res.status);
  const code = typeof payload.code === 'number' ? payload.code : res.status;
  if (code !== 200) return failed(failureText(payload), code, payload.data, typeof payload.error === 'string' ? payload.error : undefined);
  return payload;
}

/** A call answering the `{ code, success, data, msg }` envelope; resolves with `data`. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const payload = await send(path, opts);
  return (payload as unknown as R<T>).data;
}

/** A call answering a bare object (the OAuth token endpoint, the captcha); resolves with the whole answer. */
export async function requestBare<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return (await send(path, opts)) as T;
}

/** Failures that name the fields at fault: validation (400) and duplicates (409), `data: { field: message }`. */
const FIELD_ERROR_CODES: readonly number[] = [400, 409];

/** The warning a refused write asks the user to confirm (409 with `data.confirm`), sent again with `?confirm=<it>`. */
export function confirmationOf(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.code !== 409 || !isPayload(err.data)) return null;
  return typeof err.data.confirm === 'string' ? err.data.confirm : null;
}

/** The per-field messages of a failure, or null when it names no field. */
export function fieldErrorsOf(err: unknown): Record<string, string> | null {
  if (!(err instanceof ApiError) || !FIELD_ERROR_CODES.includes(err.code) || !isPayload(err.data) || confirmationOf(err)) return null;
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(err.data)) {
    if (typeof message === 'string') out[field] = message;
  }
  return Object.keys(out).length > 0 ? out : null;
}
