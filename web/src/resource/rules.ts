import { badAmountMessage, isRequired, moneyText, msg, parseMoney, t as text, type FieldDef, type Lang } from '@console/contract';
import { hasTextFormat, textFormatMessage } from '@console/contract/textFormat';
import type { Rule } from 'antd/es/form';
import { formCurrency } from './moneyValues';

/** The UI strings the rules need (resource.* keys of the i18n resources). */
export interface RuleMessages {
  pleaseEnter: (label: string) => string;
  pleaseSelect: (label: string) => string;
  tooLong: (label: string, max: number) => string;
}

/** Errors show when a field is left (blur) and clear as soon as it is fixed (change). */
export const VALIDATE_TRIGGER = ['onChange', 'onBlur'];

const PICKED: ReadonlySet<FieldDef['type']> = new Set(['datetime', 'date', 'boolean', 'ref', 'ids', 'file', 'image']);

/** Dictionary, time, flag, reference and file fields are picked rather than typed. */
export function isChoice(f: FieldDef): boolean {
  return f.dict !== undefined || PICKED.has(f.type);
}

/**
 * Whether the form requires a value: a required field, except a write-only one (a password) on an edit,
 * which may be left empty to keep the stored value.
 */
export function requiredInForm(f: FieldDef, mode: 'create' | 'edit' = 'create'): boolean {
  return isRequired(f) && !(f.writeOnly && mode === 'edit');
}

function isTypedText(f: FieldDef): boolean {
  return f.dict === undefined && (f.type === 'string' || f.type === 'text' || f.type === 'richtext' || f.type === 'id');
}

/**
 * A label inside an English sentence ("Please enter the release time"): its first letter lower-cased,
 * unless it starts with an acronym ("ID", "URL"). Chinese labels are left as they are.
 */
export function labelInSentence(label: string, lang: Lang): string {
  if (lang !== 'en' || label.length === 0) return label;
  if (/^[A-Z]{2}/.test(label)) return label;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * What a field asks for, worded like its required message: the definition's own text when it has one
 * ("Please enter the title"), else "please enter/select the <label>". The placeholder and the required
 * message both use it, so they never disagree.
 */
export function fieldPrompt(f: FieldDef, label: string, lang: Lang, messages: Pick<RuleMessages, 'pleaseEnter' | 'pleaseSelect'>): string {
  if (typeof f.required === 'object') return text(f.required, lang);
  const phrased = labelInSentence(label, lang);
  return isChoice(f) ? messages.pleaseSelect(phrased) : messages.pleaseEnter(phrased);
}

/**
 * The validation rules of a field: required (with its own message when it has one), max length, its text format, an
 * amount's shape and range (`record`: the edited record, whose currency an amount is in when the form has none).
 */
export function fieldRules(
  f: FieldDef, label: string, lang: Lang, messages: RuleMessages, mode: 'create' | 'edit' = 'create', record?: Readonly<Record<string, unknown>>,
): Rule[] {
  const rules: Rule[] = [];
  if (requiredInForm(f, mode)) {
    const message = fieldPrompt(f, label, lang, messages);
    // `whitespace` only on texts: any key besides `required` makes async-validator check the type (string)
    rules.push(isTypedText(f) ? { required: true, whitespace: true, message } : { required: true, message });
  }
  if (f.max !== undefined && isTypedText(f)) {
    rules.push({ type: 'string', max: f.max, message: messages.tooLong(label, f.max) });
  }
  if (f.format) rules.push(formatRule(f.format, textFormatMessage(f.format, label, lang)));
  if (f.type === 'money') rules.push(moneyRule(f, label, lang, record));
  return rules;
}

/**
 * A typed amount (major units) is exactly one in the currency the form names (`formCurrency`; `record`: the edited
 * record's, when the form does not offer it): at most its digits after the point, no sign or exponent, and within
 * the field's `min`/`max` (minor units, said in major units with the currency's sign); an empty one is the required
 * rule's.
 */
export function moneyRule(f: FieldDef, label: string, lang: Lang, record?: Readonly<Record<string, unknown>>): Rule {
  return ({ getFieldsValue }) => ({
    validator: async (_, value: unknown) => {
      const typed = typeof value === 'string' ? value.trim() : value == null ? '' : String(value);
      if (typed === '') return;
      const currency = formCurrency(f, getFieldsValue(true) as Record<string, unknown>, record);
      const minor = parseMoney(typed, currency);
      if (minor === undefined) throw new Error(badAmountMessage(label, currency, lang));
      if (f.min !== undefined && minor < f.min) throw new Error(msg('tooSmall', lang, { field: label, min: moneyText(f.min, currency) }));
      if (f.max !== undefined && minor > f.max) throw new Error(msg('tooLarge', lang, { field: label, max: moneyText(f.max, currency) }));
    },
  });
}

/** A typed text in its field's format (`FieldDef.format`, the rule the server applies too); an empty one is the required rule's. */
export function formatRule(format: NonNullable<FieldDef['format']>, message: string): Rule {
  return {
    validator: async (_, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : value == null ? '' : String(value);
      if (text !== '' && !hasTextFormat(text, format)) throw new Error(message);
    },
  };
}

/** The field must equal another one (a password confirmation); checked once both have a value. */
export function sameAs(other: string, message: string): Rule {
  return ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      if (value && value !== getFieldValue(other)) throw new Error(message);
    },
  });
}

/** The field must differ from another one (a new password and the current one). */
export function differentFrom(other: string, message: string): Rule {
  return ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      if (value && value === getFieldValue(other)) throw new Error(message);
    },
  });
}
