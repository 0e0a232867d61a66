import type { ResourceDef } from '@console/contract';
import { ModalForm, type ProFormInstance } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { App, Spin } from 'antd';
import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../api/client';
import { useLang } from '../i18n';
import { detailQuery, resourceApi, resourceKeys } from './api';
import type { DictMap } from './dictValues';
import { createDefaults, formFields, formValuesOf } from './fieldsOf';
import { renderFormField } from './formFields';
import { testId } from '../testId';
import type { FormContext, FormOverride, ResourceRecord } from './types';

export type FormTarget = { mode: 'create' } | { mode: 'edit'; id: string };

export interface ResourceFormModalProps<Rec extends ResourceRecord> {
  def: ResourceDef;
  target: FormTarget;
  open: boolean;
  dicts: DictMap;
  override?: FormOverride<Rec>;
  onClose: () => void;
  /** after the closing animation: the parent unmounts the modal */
  afterClose: () => void;
  /** after a successful submit */
  onSaved: () => void;
}

type Values = Record<string, unknown>;

/**
 * The one add/edit form of a resource. Mount it per opening (keyed): a create starts from the
 * definition's defaults, an edit loads the record from `detail` first.
 */
export function ResourceFormModal<Rec extends ResourceRecord>(props: ResourceFormModalProps<Rec>) {
  const { def, target, open, dicts, override, onClose, afterClose, onSaved } = props;
  const lang = useLang();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formRef = useRef<ProFormInstance<Values>>(undefined);
  const [record, setRecord] = useState<Rec>();
  const [loading, setLoading] = useState(target.mode === 'edit');
  const api = useMemo(() => resourceApi<Rec>(def), [def]);

  useEffect(() => {
    if (target.mode !== 'edit') return;
    let live = true;
    queryClient
      .fetchQuery(detailQuery<Rec>(def, target.id))
      .then((rec) => {
        if (!live) return;
        setRecord(rec);
        const values: Values = override?.toForm ? override.toForm(rec) : formValuesOf(def, rec);
        formRef.current?.setFields(Object.entries(values).map(([name, value]) => ({ name, value })));
        setLoading(false);
      })
      .catch(() => {
        if (live) onClose();
      });
    return () => {
      live = false;
    };
    // Runs once: the modal is mounted per opening, so its target never changes.
  }, []);

  const ctx: FormContext<Rec> = { mode: target.mode, record };

  const submit = async (values: Values): Promise<boolean> => {
    const body = override?.toSubmit ? override.toSubmit(values, ctx) : { ...values };
    if (target.mode === 'edit') body.id = target.id;
    try {
      await api.submit(body);
    } catch (err) {
      const errors = fieldErrorsOf(err);
      if (errors) formRef.current?.setFields(Object.entries(errors).map(([name, error]) => ({ name, errors: [error] })));
      return false;
    }
    void message.success(t(target.mode === 'create' ? 'resource.added' : 'resource.updated'));
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    onSaved();
    return true;
  };

  const items = formFields(def).map(([name, field]) => {
    const custom = override?.fields?.[name];
    if (custom === false) return null;
    const fieldCtx = { name, field, mode: target.mode, lang, dicts };
    return <Fragment key={name}>{custom ? custom(fieldCtx) : renderFormField(fieldCtx, t)}</Fragment>;
  });

  return (
    <ModalForm<Values>
      title={t(target.mode === 'create' ? 'resource.add' : 'resource.edit')}
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      formRef={formRef}
      // field ids become `resource_<field>` (the search form's are `search_<field>`)
      name="resource"
      initialValues={target.mode === 'create' ? createDefaults(def) : undefined}
      onFinish={submit}
      width={override?.width ?? 720}
      layout="horizontal"
      labelCol={{ flex: '130px' }}
      labelWrap
      dateFormatter="string"
      omitNil={false}
      scrollToFirstError
      modalProps={{ afterClose, maskClosable: false, destroyOnHidden: true }}
      submitter={{
        searchConfig: { submitText: t('common.ok'), resetText: t('common.cancel') },
        submitButtonProps: { disabled: loading, ...testId('resource-form-submit') },
        resetButtonProps: testId('resource-form-cancel'),
      }}
      data-testid="resource-form"
    >
      <Spin spinning={loading}>
        {items}
        {override?.extra?.(ctx)}
      </Spin>
    </ModalForm>
  );
}
