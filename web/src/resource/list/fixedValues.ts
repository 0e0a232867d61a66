import type { FormOverride } from '../types';

/** A form override that also keeps the screen's fixed fields out of the form and sets them on create. */
export function withFixedValues<Rec>(override: FormOverride<Rec> | undefined, fixed: Record<string, string> | undefined): FormOverride<Rec> | undefined {
  if (!fixed) return override;
  const hidden = Object.fromEntries(Object.keys(fixed).map((name) => [name, false as const]));
  return {
    ...override,
    fields: { ...override?.fields, ...hidden },
    toSubmit: (values, ctx) => {
      const body = override?.toSubmit ? override.toSubmit(values, ctx) : values;
      return ctx.mode === 'create' ? { ...body, ...fixed } : body;
    },
  };
}
