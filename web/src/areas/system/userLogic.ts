import { md5 } from 'js-md5';

/** The add/edit form's values → the submit body: the password leaves as its MD5 hex; an empty one is left out (the initial password). */
export function userSubmitBody(values: Record<string, unknown>): Record<string, unknown> {
  const body = { ...values };
  const password = typeof body.password === 'string' ? body.password : '';
  if (password === '') delete body.password;
  else body.password = md5(password);
  return body;
}

/** The platform dialog's extension: empty, or a JSON object. */
export function userExtValid(text: string | null | undefined): boolean {
  const value = (text ?? '').trim();
  if (value === '') return true;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The ids ('1,2') every one of the given lists holds: the roles dialog starts from the roles the users share. */
export function commonIds(lists: readonly (string | null | undefined)[]): string[] {
  if (lists.length === 0) return [];
  const split = lists.map((l) => (l ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  return split[0]!.filter((id) => split.every((ids) => ids.includes(id)));
}
