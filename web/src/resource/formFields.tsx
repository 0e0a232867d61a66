import { t as text } from '@console/contract';
import {
  ProForm,
  ProFormDateTimePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import '../time/pickerZone';
import { WIRE_DATETIME } from './display';
import { dictOptions } from './dictValues';
import { RichTextEditor } from './RichTextEditor';
import { fieldPrompt, fieldRules, VALIDATE_TRIGGER } from './rules';
import type { FormFieldContext } from './types';


/** The form item generated for a field, by its type (the caller sets the React key). */
export function renderFormField(ctx: FormFieldContext, t: TFunction): ReactNode {
  const { name, field: f } = ctx;
  const label = text(f.label, ctx.lang);
  const messages = {
    pleaseEnter: (l: string) => t('resource.pleaseEnter', { label: l }),
    pleaseSelect: (l: string) => t('resource.pleaseSelect', { label: l }),
    tooLong: (l: string, max: number) => t('resource.tooLong', { label: l, max }),
  };
  // the placeholder says what the required message says ("Please enter the title" / 请输入通知标题)
  const placeholder = fieldPrompt(f, label, ctx.lang, messages);
  const common = {
    name,
    label,
    rules: fieldRules(f, label, ctx.lang, messages),
    validateTrigger: VALIDATE_TRIGGER,
    tooltip: f.help ? text(f.help, ctx.lang) : undefined,
  };
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
  switch (f.type) {
    case 'string':
    case 'id':
      return <ProFormText {...common} placeholder={placeholder} fieldProps={{ maxLength: f.max }} />;
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
  }
}
