import { Code, type Lang, type MessageKey, msg } from '@console/contract';

/** a parameter of a message: a value, or a text in each language (a reason the server composed) */
export type MessageParam = string | number | { zh: string; en: string };
type Params = Record<string, MessageParam>;

/** a message's parameters in one language */
export const inLang = (params: Params | undefined, lang: Lang): Record<string, string | number> | undefined =>
  params && Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? v[lang] : v]));

/** A failure with a code (= HTTP status) and a message translated per request. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params?: Params,
    /** per-field messages for validation failures, already in the caller's language */
    readonly data?: Record<string, string>,
  ) {
    super(key);
  }

  message_(lang: Lang): string {
    return msg(this.key, lang, inLang(this.params, lang));
  }
}

/**
 * A service outside the server failed (object storage, a vendor's API): the caller gets the fixed message
 * `key` in its language; the detail (it may name internal hosts, statuses, bodies) goes to the error log only.
 */
export class UpstreamError extends AppError {
  constructor(key: MessageKey, readonly detail: string) {
    super(Code.BAD_REQUEST, key);
    this.name = 'UpstreamError';
    this.message = detail;
  }
}

export const badRequest = (key: MessageKey, params?: Params, data?: Record<string, string>) =>
  new AppError(Code.BAD_REQUEST, key, params, data);
export const unauthorized = (key: MessageKey = 'unauthorized') => new AppError(Code.UNAUTHORIZED, key);
export const forbidden = (key: MessageKey, params?: Params) => new AppError(Code.FORBIDDEN, key, params);
/** A business rule refusing one field's value: 400, the message also placed on the field. */
export const fieldError = (key: MessageKey, lang: Lang, field: string, params?: Params) =>
  new AppError(Code.BAD_REQUEST, key, params, { [field]: msg(key, lang, inLang(params, lang)) });
export const notFound = () => new AppError(Code.NOT_FOUND, 'notFound');
export const conflict = (params: Record<string, string | number>, data?: Record<string, string>) =>
  new AppError(Code.CONFLICT, 'duplicate', params, data);

/**
 * A write that needs the caller's word first (it would lock someone out): 409 with `data.confirm` naming the
 * warning; the same call sent with `?confirm=<code>` goes through (`SaveContext.confirmed`).
 */
export const confirmFirst = (confirm: string, key: MessageKey, params?: Params) =>
  new AppError(Code.CONFLICT, key, params, { confirm });

/** Validation failure: every bad field with its message; `msg` lists them all. */
export class FieldErrors extends AppError {
  constructor(fields: Record<string, string>, lang: Lang) {
    super(Code.BAD_REQUEST, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
    void lang;
  }
}
