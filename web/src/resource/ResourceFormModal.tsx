import type { ResourceDef } from '@console/contract';
import { ModalForm, type ProFormInstance } from '@ant-design/pro-components';
import { Spin } from 'antd';
import { Fragment, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../i18n';
import { resourceApi } from './api';
import type { DictMap } from './dictValues';
import { createDefaults, formFields } from './fieldsOf';
import { renderFormField, whenShown } from './formFields';
import { useCloseGuard, useEditRecord, useFirstFieldFocus, useFormSubmit, type Values } from './formModalHooks';
import { testId } from '../testId';
import type { FormContext, FormOverride, FormTarget, ResourceRecord } from './types';

export interface ResourceFormModalProps<Rec extends ResourceRecord> {
  def: ResourceDef;
  target: FormTarget;
  open: boolean;
  dicts: DictMap;
  override?: FormOverride<Rec>;
  onClose: () => void;
  /** after the closing animation: the parent unmounts the modal */
  afterClose: () => void;
  /** after a successful submit, with the server's answer */
  onSaved: (answer: unknown) => void;
}

/**
 * The one add/edit form of a resource. Mount it per opening (keyed): a create starts from the
 * definition's defaults, an edit loads the record from `detail` first.
 *
 * Input is never lost: Esc closes only the innermost layer (an open date panel, select list or popover
 * first, the dialog after), and a dialog with changes asks before ×, Esc or a click outside closes it
 * (the Cancel button is an explicit discard). The first field takes the focus once the form is ready,
 * and the focus comes back into the dialog after its confirm.
 */
export function ResourceFormModal<Rec extends ResourceRecord>(props: ResourceFormModalProps<Rec>) {
  const { def, target, open, dicts, override, onClose, afterClose, onSaved } = props;
  const lang = useLang();
  const { t } = useTranslation();
  const formRef = useRef<ProFormInstance<Values>>(undefined);
  const api = useMemo(() => resourceApi<Rec>(def), [def]);
  const bodyRef = useRef<HTMLDivElement>(null);
  // the values the form opened with (an edit: once the record is in), to tell whether anything changed
  const createValues = useMemo(() => (target.mode === 'create' ? createDefaults(def, target.preset) : undefined), [def, target]);
  const initialValues = useRef<Values | undefined>(createValues);
  const [opened, setOpened] = useState(false);
  const { record, loading } = useEditRecord<Rec>(def, target, override, formRef, initialValues, onClose);
  useFirstFieldFocus(open, opened, loading, bodyRef);
  const { requestClose, onKeyDownCapture } = useCloseGuard(formRef, initialValues, open, onClose);
  const ctx: FormContext<Rec> = { mode: target.mode, record };
  const submit = useFormSubmit<Rec>(def, api, target, override, ctx, formRef, { onSaved, onClose });

  const items = formFields(def).map(([name, field]) => {
    const custom = override?.fields?.[name];
    // a write-only value set at creation alone (a new tenant's administrator password) has nothing to edit
    if (custom === false || (field.writeOnly && field.immutable && target.mode === 'edit')) return null;
    const fieldCtx = { name, field, mode: target.mode, lang, dicts, def, record };
    return <Fragment key={name}>{whenShown(fieldCtx, custom ? custom(fieldCtx) : renderFormField(fieldCtx, t))}</Fragment>;
  });

  return (
    <ModalForm<Values>
      title={target.mode === 'create' ? (override?.createTitle ?? t('resource.add')) : t('resource.edit')}
      open={open}
      // closing is decided here (requestClose, submit, Cancel), not by ModalForm's own open state
      onOpenChange={() => undefined}
      formRef={formRef}
      // field ids become `resource_<field>` (the search form's are `search_<field>`)
      name="resource"
      initialValues={createValues}
      onFinish={submit}
      width={override?.width ?? 720}
      layout="horizontal"
      labelCol={{ flex: '130px' }}
      labelWrap
      dateFormatter="string"
      omitNil={false}
      scrollToFirstError
      modalProps={{
        afterClose,
        afterOpenChange: setOpened,
        destroyOnHidden: true,
        // × and a click outside ask first when something changed; Esc is handled below
        onCancel: requestClose,
        maskClosable: true,
        keyboard: false,
        wrapProps: { onKeyDownCapture },
      }}
      submitter={{
        searchConfig: { submitText: t('common.ok'), resetText: t('common.cancel') },
        submitButtonProps: { disabled: loading, ...testId('resource-form-submit') },
        // the Cancel button is a deliberate discard
        resetButtonProps: { ...testId('resource-form-cancel'), onClick: onClose },
      }}
      data-testid="resource-form"
    >
      <Spin spinning={loading}>
        <div ref={bodyRef}>
          {items}
          {override?.extra?.(ctx)}
        </div>
      </Spin>
    </ModalForm>
  );
}
