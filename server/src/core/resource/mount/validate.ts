import { dictKeyOf, type FieldDef, isRequired, type Lang, msg, prefixedDictKey, SECRET_MASK, t } from '@console/contract';
import { AppError } from '../../errors.js';
import { sanitizeHtml } from '../../html.js';
import { parseDateTime } from '../../time.js';
import { describeIssues, isSafeLink } from '../../validation.js';
import { fieldRange } from '../ranges.js';
import { TREE_ROOT } from '../refs.js';
import type { ResourceMount } from './resourceMount.js';

type Row = Record<string, unknown>;
type Mode = 'create' | 'update';

export const fieldError = (name: string, text: string) => new AppError(400, 'validationFailed', { detail: text }, { [name]: text });

const requiredText = (f: FieldDef, lang: Lang) => (typeof f.required === 'object' ? t(f.required, lang) : msg('required', lang, { field: t(f.label, lang) }));

/**
 * A dictionary-coded field takes only its dictionary's keys (a `dictPrefixed` one is stored prefixed). Read before the request's transaction opens:
 * the labels are loaded on their own connection (PGlite has one), and cached.
 */
export async function checkDictValues(m: ResourceMount, values: Row, lang: Lang): Promise<void> {
  const fields: Record<string, string> = {};
  for (const [name, code] of m.dictFields) {
    const v = values[name];
    if (v === undefined || v === null || v === '') continue;
    const f = m.def.fields[name]!;
    const key = dictKeyOf(f, String(v));
    if (!(await m.ctx.dicts.labels(code, lang)).has(key)) fields[name] = msg('notInDict', lang, { field: t(f.label, lang), value: String(v) });
    // stored as BladeX has it (`flow_1`), whichever form was given
    else if (f.dictPrefixed) values[name] = prefixedDictKey(code, key);
  }
  if (Object.keys(fields).length) throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
}

/** A given, non-blank value as stored: parsed dates, sanitized rich text, links and numbers checked. */
function storedValue(m: ResourceMount, name: string, f: FieldDef, given: unknown, lang: Lang): unknown {
  let v = given;
  if (f.type === 'datetime') v = parseDateTime(String(v));
  if (f.type === 'datetime' && v === null) throw fieldError(name, msg('badDate', lang, { field: t(f.label, lang) }));
  if (f.type === 'richtext' && typeof v === 'string') v = sanitizeHtml(v);
  if (f.type === 'file' || f.type === 'image') {
    const links = f.multiple ? String(v).split(',').filter(Boolean) : [String(v)];
    if (!links.every(isSafeLink)) throw fieldError(name, msg('linkUnsafe', lang, { field: t(f.label, lang) }));
  }
  const range = (f.type === 'int' || f.type === 'number' || f.type === 'money') ? fieldRange(m.columns[name], f) : undefined;
  if (range && typeof v === 'number' && (v < range.min || v > range.max)) {
    throw fieldError(name, msg('outOfRange', lang, { field: t(f.label, lang), min: range.min, max: range.max }));
  }
  return v;
}

/** a definition's fields as [name, field] pairs, and those with a default: once per definition, not per record */
const fieldLists = new WeakMap<object, { all: Array<[string, FieldDef]>; defaults: Array<[string, FieldDef]> }>();
function fieldsOf(m: ResourceMount) {
  let lists = fieldLists.get(m.def.fields);
  if (!lists) {
    const all = Object.entries(m.def.fields);
    fieldLists.set(m.def.fields, (lists = { all, defaults: all.filter(([, f]) => f.defaultValue !== undefined) }));
  }
  return lists;
}

/** The parsed input as the values to write: secrets sealed (unless the caller seals them itself), blanks resolved, defaults on create. */
function fromInput(m: ResourceMount, input: Row, mode: Mode, lang: Lang, sealSecrets: boolean): Row {
  const values: Row = {};
  const fields = fieldsOf(m);
  for (const [name, f] of fields.all) {
    if (!(name in input)) continue;
    const v = input[name];
    if (v === undefined) continue;
    if (f.secret && (v === null || v === '' || v === SECRET_MASK)) {
      // the mask (or a blank) sent back by an edit form keeps the stored secret
      if (mode === 'create' && isRequired(f)) throw fieldError(name, requiredText(f, lang));
      continue;
    }
    if (f.secret) {
      values[name] = sealSecrets ? m.secrets.seal(String(v)) : String(v);
      continue;
    }
    if (v === null || v === '') {
      if (mode === 'update' && isRequired(f)) throw fieldError(name, requiredText(f, lang));
      if (f.writeOnly) continue; // an empty password on an edit keeps the stored one
      values[name] = m.def.tree?.parentField === name ? TREE_ROOT : null;
      continue;
    }
    values[name] = storedValue(m, name, f, v, lang);
  }
  if (mode === 'create') {
    for (const [name, f] of fields.defaults) {
      if (values[name] === undefined) values[name] = f.defaultValue;
    }
  }
  return values;
}

/**
 * a submit body checked against the definition (zod schema, then the field conversions); a 400 naming every bad field.
 * `unsealed`: the secret fields' values are left in clear for the caller to seal before anything else sees them (an
 * import seals a chunk's secrets at once, beside the reading of the next rows: io/importJob.ts)
 */
export function validateSubmit(m: ResourceMount, body: Row, mode: Mode, lang: Lang, opts: { unsealed?: boolean } = {}): { input: Row; values: Row } {
  const parsed = (mode === 'create' ? m.schemas.create : m.schemas.update).safeParse(body);
  if (!parsed.success) {
    const fields = describeIssues(parsed.error.issues, lang, m.labels, body);
    throw new AppError(400, 'validationFailed', { detail: Object.values(fields).join('; ') }, fields);
  }
  const input = parsed.data as Row;
  const values = fromInput(m, input, mode, lang, !opts.unsealed);
  const inspected = m.hooks.inspect?.(input, { mode, lang });
  if (inspected?.errors && Object.keys(inspected.errors).length) {
    throw new AppError(400, 'validationFailed', { detail: Object.values(inspected.errors).join('; ') }, inspected.errors);
  }
  return { input, values: inspected?.values ? Object.assign(values, inspected.values) : values };
}
