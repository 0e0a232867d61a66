import { SYSTEM_FIELDS, shownInForm, type FieldDef, type ResourceDef } from '@console/contract';

/** The fields of the add/edit form, in definition order. */
export function formFields(def: ResourceDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([, f]) => shownInForm(f));
}

/** The fields the detail view shows: every field of the definition and the audit times. */
export function detailFields(def: ResourceDef): [string, FieldDef][] {
  return [...Object.entries(def.fields), ['createTime', SYSTEM_FIELDS.createTime], ['updateTime', SYSTEM_FIELDS.updateTime]];
}

/** The values a new record starts with. */
export function createDefaults(def: ResourceDef): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, f] of formFields(def)) if (f.defaultValue !== undefined) values[name] = f.defaultValue;
  return values;
}

/** The form's values for an edited record: its form fields only (engine columns stay out of the body). */
export function formValuesOf(def: ResourceDef, record: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name] of formFields(def)) values[name] = record[name];
  return values;
}
