import { isMd5Hex } from './auth/passwords.js';
import { type FieldDef, type I18nText, type Lang, type MessageKey, type TextFormat, isRequired, msg, t } from '@console/contract';
import { z } from 'zod';

/** Labels (and required messages) of the fields a route accepts, for readable validation messages. */
export type FieldLabels = Record<string, Pick<FieldDef, 'label' | 'required'> | I18nText>;

const FORMAT_MESSAGE: Record<TextFormat, MessageKey> = {
  ip: 'badIp', url: 'badUrl', mac: 'badMac', mobile: 'badMobile', phone: 'badPhone', email: 'badEmail',
};

function labelOf(labels: FieldLabels | undefined, field: string, lang: Lang): string {
  const entry = labels && Object.hasOwn(labels, field) ? labels[field] : undefined;
  if (!entry) return field;
  return 'label' in entry ? t(entry.label, lang) : t(entry, lang);
}

function requiredMessage(labels: FieldLabels | undefined, field: string, lang: Lang): string {
  const entry = labels && Object.hasOwn(labels, field) ? labels[field] : undefined;
  if (entry && 'label' in entry && isRequired(entry as FieldDef) && typeof entry.required === 'object') {
    return t(entry.required, lang);
  }
  return msg('required', lang, { field: labelOf(labels, field, lang) });
}

type Issue = z.core.$ZodIssue;

/** Turns zod issues into `{ field: message }` in the caller's language. The first issue of a field wins. */
export function describeIssues(
  issues: readonly Issue[],
  lang: Lang,
  labels?: FieldLabels,
  /** the input that was validated: tells a missing value from a wrong one */
  source?: unknown,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out[key] ??= msg('unknownField', lang, { field: key });
      continue;
    }
    const field = issue.path.length ? String(issue.path[0]) : '_';
    if (out[field]) continue;
    const given = source && typeof source === 'object' && Object.hasOwn(source, field) ? (source as Record<string, unknown>)[field] : undefined;
    out[field] = describeIssue(issue, field, lang, labels, given);
  }
  return out;
}

function describeIssue(issue: Issue, field: string, lang: Lang, labels: FieldLabels | undefined, given: unknown): string {
  const label = labelOf(labels, field, lang);
  switch (issue.code) {
    case 'invalid_type':
      if (given === undefined || given === null) return requiredMessage(labels, field, lang);
      if (issue.expected === 'int') return msg('notInteger', lang, { field: label });
      if (issue.expected === 'number') return msg('notNumber', lang, { field: label });
      return msg('badType', lang, { field: label });
    case 'too_small':
      if (issue.origin === 'string') return requiredMessage(labels, field, lang);
      return msg('tooSmall', lang, { field: label, min: String(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'string') return msg('tooLong', lang, { field: label, max: String(issue.maximum) });
      return msg('tooLarge', lang, { field: label, max: String(issue.maximum) });
    case 'invalid_union': {
      if (given === undefined || given === null) return requiredMessage(labels, field, lang);
      const entry = labels && Object.hasOwn(labels, field) ? labels[field] : undefined;
      const type = entry && 'type' in entry ? (entry as FieldDef).type : undefined;
      if (type === 'money') return msg('notMinorUnits', lang, { field: label });
      return type === 'boolean' ? msg('badType', lang, { field: label }) : msg('badId', lang, { field: label });
    }
    case 'invalid_value':
      return msg('badEnum', lang, { field: label });
    case 'custom':
      if ((issue.params as { kind?: string } | undefined)?.kind === 'datetime') return msg('badDate', lang, { field: label });
      if ((issue.params as { kind?: string } | undefined)?.kind === 'md5') return msg('passwordNotMd5', lang);
      if ((issue.params as { kind?: string } | undefined)?.kind === 'date') return msg('badDay', lang, { field: label });
      if ((issue.params as { kind?: string } | undefined)?.kind === 'money') return msg('notMinorUnits', lang, { field: label });
      if ((issue.params as { kind?: string } | undefined)?.kind === 'required') return requiredMessage(labels, field, lang);
      if ((issue.params as { kind?: string } | undefined)?.kind === 'idsRequired') return msg('idsRequired', lang);
      if ((issue.params as { kind?: string } | undefined)?.kind === 'format') {
        const format = (issue.params as { format: TextFormat }).format;
        return msg(FORMAT_MESSAGE[format], lang, { field: label });
      }
      if ((issue.params as { kind?: string } | undefined)?.kind === 'idsMax') {
        return msg('tooManyItems', lang, { field: label, max: String((issue.params as { max?: number }).max ?? '') });
      }
      // an id list with a malformed id
      if (issue.path.length && labels && Object.hasOwn(labels, field) && 'type' in (labels[field] as object) && (labels[field] as FieldDef).type === 'ids') {
        return msg('badId', lang, { field: label });
      }
      return msg('badType', lang, { field: label });
    case 'invalid_format':
      if (issue.format === 'regex' && typeof issue.input === 'string' && /^\s*$/.test(issue.input)) {
        return requiredMessage(labels, field, lang);
      }
      return msg('badType', lang, { field: label });
    default:
      return msg('badType', lang, { field: label });
  }
}

/** A password field as the console sends it: the hex MD5 of what the user typed. */
export const md5Field = () => z.string().trim().toLowerCase().refine(isMd5Hex, { params: { kind: 'md5' } });

/**
 * A link the console may render (avatars, images): http(s) to anywhere, or a path on this server
 * (`/files/…`). Never `javascript:`, `data:`, protocol-relative `//host` or anything else.
 */
export function isSafeLink(v: string): boolean {
  const link = v.trim();
  if (/^\/(?![/\\])/.test(link)) return !/[\s<>"'`]/.test(link);
  try {
    const u = new URL(link);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !/[\s<>"'`]/.test(link);
  } catch {
    return false;
  }
}
