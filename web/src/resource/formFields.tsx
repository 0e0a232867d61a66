import { dictNameKey, rowMeets, t as text } from '@console/contract';
import {
  ProForm,
  ProFormDatePicker,
  ProFormDateTimePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import { Switch } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import '../time/pickerZone';
import { isOn, WIRE_DATE, WIRE_DATETIME } from './display';
import { dictOptions } from './dictValues';
import { MoneyInput } from './MoneyInput';
import { formCurrency } from './moneyValues';
import { joinIds, splitIds } from './refOptions';
import { RefSelect } from './RefSelect';
import { RegionSelect } from './RegionSelect';
import { RichTextEditor } from './RichTextEditor';
import { fieldPrompt, fieldRules, VALIDATE_TRIGGER } from './rules';
import type { FormFieldContext } from './types';
import { UploadField } from './UploadField';

/** A flag in the form: a Switch over the wire's 0/1. */
const switchValue = {
  getValueProps: (value: unknown) => ({ checked: isOn(value) }),
  normalize: (checked: unknown) => (checked ? 1 : 0),
};

/**
 * What the generated item of a field carries: name, label, rules (required with the definition's message,
 * max length), validation trigger, help tooltip, disabled, and the placeholder worded like the required
 * message. A screen that replaces a field's widget (`formOverride.fields`) spreads `common` on its item.
 */
export function fieldItemProps(ctx: FormFieldContext, t: TFunction) {
  const { name, field: f, mode } = ctx;
  const label = text(f.label, ctx.lang);
  const messages = {
    pleaseEnter: (l: string) => t('resource.pleaseEnter', { label: l }),
    pleaseSelect: (l: string) => t('resource.pleaseSelect', { label: l }),
    tooLong: (l: string, max: number) => t('resource.tooLong', { label: l, max }),
  };
  // the placeholder says what the required message says ("Please enter the title" / 请输入通知标题)
  const placeholder = fieldPrompt(f, label, ctx.lang, messages);
  // set when created, read-only after
  const disabled = f.immutable === true && mode === 'edit';
  const common = {
    name,
    label,
    rules: fieldRules(f, label, ctx.lang, messages, mode, ctx.record),
    validateTrigger: VALIDATE_TRIGGER,
    tooltip: f.help ? text(f.help, ctx.lang) : undefined,
    disabled,
  };
  return { common, placeholder };
}

type ItemProps = ReturnType<typeof fieldItemProps>['common'];

/** the phone keypad for numbers, the email keyboard for addresses */
const INPUT_MODE: Record<string, 'tel' | 'email' | 'url' | undefined> = { mobile: 'tel', phone: 'tel', email: 'email', url: 'url' };

/** Fields shown by their role rather than their type: passwords, credentials, region paths, dictionaries, a tree's parent. */
function specialField(ctx: FormFieldContext, t: TFunction, common: ItemProps, placeholder: string | undefined): ReactNode | undefined {
  const { name, field: f, mode } = ctx;
  const disabled = common.disabled;
  if (f.writeOnly) {
    // a password: never answered, so an edit starts empty and keeps the stored one when left so
    return (
      <ProFormText.Password
        {...common}
        placeholder={mode === 'edit' ? t('resource.keepPassword') : placeholder}
        fieldProps={{ maxLength: f.max, autoComplete: 'new-password' }}
      />
    );
  }
  if (f.secret) {
    // a credential: answered as ****** (sending that back keeps the stored one), typed in a password box
    return <ProFormText.Password {...common} placeholder={placeholder} fieldProps={{ maxLength: f.max, autoComplete: 'new-password' }} />;
  }
  if (f.regionPath) {
    // picked in the region tree; the form holds the comma-joined path, as the wire does
    return (
      <ProForm.Item {...common}>
        <RegionSelect placeholder={placeholder} disabled={disabled} />
      </ProForm.Item>
    );
  }
  if (f.dict) {
    return (
      <ProFormSelect
        {...common}
        options={dictOptions(f, ctx.dicts)}
        placeholder={placeholder}
        fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
      />
    );
  }
  const treeParent = ctx.def?.tree?.parentField === name ? ctx.def : undefined;
  if (treeParent) {
    const own = mode === 'edit' && ctx.record?.id !== undefined ? String(ctx.record.id) : undefined;
    return (
      <ProForm.Item {...common}>
        <RefSelect refDef={treeParent} rootLabel={t('resource.treeRoot')} exclude={own} currentLabel={ctx.record?.[dictNameKey(name)]} placeholder={placeholder} disabled={disabled} />
      </ProForm.Item>
    );
  }
  return undefined;
}

/** A reference (`ref`) or several (`ids`): a select over the referenced resource, or typed ids without one. */
function referenceField(ctx: FormFieldContext, common: ItemProps, placeholder: string | undefined): ReactNode {
  const { name, field: f } = ctx;
  const disabled = common.disabled;
  if (!f.ref && f.type === 'ref') return <ProFormText {...common} placeholder={placeholder} />;
  if (!f.ref) {
    // ids of nothing in particular: typed, kept as '1,2'
    return (
      <ProFormSelect
        {...common}
        mode={f.type === 'ids' ? 'tags' : undefined}
        placeholder={placeholder}
        getValueProps={(value: unknown) => ({ value: f.type === 'ids' ? splitIds(value) : value })}
        normalize={(value: unknown) => (f.type === 'ids' ? joinIds(value) : value)}
        fieldProps={{ tokenSeparators: [','], open: false, suffixIcon: null }}
      />
    );
  }
  return (
    <ProForm.Item {...common}>
      <RefSelect refCode={f.ref} multiple={f.type === 'ids'} currentLabel={ctx.record?.[dictNameKey(name)]} placeholder={placeholder} disabled={disabled} />
    </ProForm.Item>
  );
}

/**
 * An amount: typed in major units of the currency the form's currency field names (else the edited record's, else
 * CNY), its sign before it; checked again when the currency changes. The form holds the text; `submitValues` sends
 * minor units.
 */
function moneyField(ctx: FormFieldContext, common: ItemProps, placeholder: string | undefined): ReactNode {
  const { field: f } = ctx;
  const currencyField = f.currency;
  const item = (values: Record<string, unknown> | undefined) => (
    <ProForm.Item {...common} dependencies={currencyField ? [currencyField] : undefined}>
      <MoneyInput currency={formCurrency(f, values, ctx.record)} placeholder={placeholder} disabled={common.disabled} />
    </ProForm.Item>
  );
  if (!currencyField) return item(undefined);
  return <ProFormDependency name={[currencyField]}>{(values) => item(values)}</ProFormDependency>;
}

/**
 * A field shown only while the record meets its `formWhen`: watched in the form's values (the field it names may be
 * typed in the same form), else read from the stored record (a field the form does not hold).
 */
export function whenShown(ctx: FormFieldContext, node: ReactNode): ReactNode {
  const when = ctx.field.formWhen;
  if (!when) return node;
  return (
    <ProFormDependency name={[when.field]}>
      {(values: Record<string, unknown>) => (rowMeets(when, { ...ctx.record, ...dropUndefined(values) }) ? node : null)}
    </ProFormDependency>
  );
}

const dropUndefined = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));

/** The form item generated for a field, by its type (the caller sets the React key). */
export function renderFormField(ctx: FormFieldContext, t: TFunction): ReactNode {
  const { field: f } = ctx;
  const { common, placeholder } = fieldItemProps(ctx, t);
  const disabled = common.disabled;
  const special = specialField(ctx, t, common, placeholder);
  if (special !== undefined) return special;
  switch (f.type) {
    case 'string':
    case 'id':
      return <ProFormText {...common} placeholder={placeholder} fieldProps={{ maxLength: f.max, inputMode: INPUT_MODE[f.format ?? ''] }} />;
    case 'text':
      return (
        <ProFormTextArea
          {...common}
          placeholder={placeholder}
          fieldProps={{ maxLength: f.max, showCount: f.max !== undefined, autoSize: { minRows: 3, maxRows: 10 } }}
        />
      );
    case 'richtext':
      return (
        <ProForm.Item {...common}>
          <RichTextEditor placeholder={placeholder} />
        </ProForm.Item>
      );
    case 'int':
    case 'number':
      return (
        <ProFormDigit
          {...common}
          min={f.min}
          max={f.max}
          placeholder={placeholder}
          fieldProps={{ precision: f.type === 'int' ? 0 : undefined }}
        />
      );
    case 'datetime':
      return (
        <ProFormDateTimePicker
          {...common}
          placeholder={placeholder}
          fieldProps={{ format: WIRE_DATETIME, style: { width: '100%' } }}
        />
      );
    case 'date':
      return <ProFormDatePicker {...common} placeholder={placeholder} fieldProps={{ format: WIRE_DATE, style: { width: '100%' } }} />;
    case 'boolean':
      return (
        <ProForm.Item {...common} {...switchValue}>
          <Switch disabled={disabled} />
        </ProForm.Item>
      );
    case 'ref':
    case 'ids':
      return referenceField(ctx, common, placeholder);
    case 'file':
    case 'image':
      return (
        <ProForm.Item {...common}>
          <UploadField image={f.type === 'image'} disabled={disabled} />
        </ProForm.Item>
      );
    case 'money':
      return moneyField(ctx, common, placeholder);
    case 'json':
      // named values written by the server (a device's attributes): shown, not typed in
      return null;
  }
}
