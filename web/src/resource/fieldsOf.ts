import { SYSTEM_FIELDS, shownInForm, type FieldDef, type ResourceDef } from '@console/contract';
import { amountFormText, amountFromForm, formCurrency } from './moneyValues';
import type { FormMode } from './types';

/** The value of a tree's parent field for a root (BladeX: '0'). */
export const TREE_ROOT = '0';

/** The fields of the add/edit form, in definition order. */
export function formFields(def: ResourceDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([, f]) => shownInForm(f));
}

/** The fields the detail view shows: every answered field of the definition and the audit times. */
export function detailFields(def: ResourceDef): [string, FieldDef][] {
  return [
    ...Object.entries(def.fields).filter(([, f]) => !f.writeOnly),
    ['createTime', SYSTEM_FIELDS.createTime],
    ['updateTime', SYSTEM_FIELDS.updateTime],
  ];
}

/** The form's money fields: their values are typed in major units (moneyValues.ts). */
function moneyFields(def: ResourceDef): [string, FieldDef][] {
  return formFields(def).filter(([, f]) => f.type === 'money');
}

/**
 * The values a new record starts with: the definition's defaults, flags off (0) and a tree's parent at
 * the top level, then `preset` (the parent of "add child"); an amount's default (minor units) in major units.
 */
export function createDefaults(def: ResourceDef, preset?: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, f] of formFields(def)) {
    if (f.defaultValue !== undefined) values[name] = f.defaultValue;
    else if (f.type === 'boolean') values[name] = 0;
    else if (def.tree?.parentField === name) values[name] = TREE_ROOT;
  }
  const all = { ...values, ...preset };
  for (const [name, f] of moneyFields(def)) if (f.defaultValue !== undefined && preset?.[name] === undefined) all[name] = amountFormText(f.defaultValue, formCurrency(f, all));
  return all;
}

/**
 * The form's values for an edited record: its form fields only (engine columns stay out of the body);
 * a write-only field starts empty (it is never answered); an amount in major units of the record's currency.
 */
export function formValuesOf(def: ResourceDef, record: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, f] of formFields(def)) {
    if (f.writeOnly) values[name] = undefined;
    else if (f.type === 'money') values[name] = amountFormText(record[name], formCurrency(f, record));
    else values[name] = record[name];
  }
  return values;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * The submit body of the form's values: on an edit, an empty write-only field (a password) is left out, keeping the
 * stored one; a typed amount becomes minor units in the currency the form (else the edited `record`) names.
 */
export function submitValues(def: ResourceDef, values: Record<string, unknown>, mode: FormMode, record?: Record<string, unknown>): Record<string, unknown> {
  const body = { ...values };
  if (mode === 'edit') for (const [name, f] of Object.entries(def.fields)) if (f.writeOnly && isEmpty(body[name])) delete body[name];
  for (const [name, f] of moneyFields(def)) if (name in body) body[name] = amountFromForm(body[name], formCurrency(f, values, record));
  return body;
}
