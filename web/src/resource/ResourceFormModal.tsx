import type { ResourceDef } from '@console/contract';
import { ModalForm, type ProFormInstance } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { App, Spin } from 'antd';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../api/client';
import { useLang } from '../i18n';
import { detailQuery, resourceApi, resourceKeys } from './api';
import type { DictMap } from './dictValues';
import { confirmInDialog, focusFirstField, hasOpenPopup } from '../dialog/dialogFocus';
import { createDefaults, formFields, formValuesOf, submitValues } from './fieldsOf';
import { formChanged } from './formDirty';
import { renderFormField } from './formFields';
import { testId } from '../testId';
import type { FormContext, FormOverride, ResourceRecord } from './types';

/** What the form opens for: a new record (with `preset` values, e.g. the parent of "add child") or an edit. */
export type FormTarget = { mode: 'create'; preset?: Record<string, unknown> } | { mode: 'edit'; id: string };

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

type Values = Record<string, unknown>;

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
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const formRef = useRef<ProFormInstance<Values>>(undefined);
  const [record, setRecord] = useState<Rec>();
  const [loading, setLoading] = useState(target.mode === 'edit');
  const api = useMemo(() => resourceApi<Rec>(def), [def]);
  const bodyRef = useRef<HTMLDivElement>(null);
  // the values the form opened with (an edit: once the record is in), to tell whether anything changed
  const createValues = useMemo(() => (target.mode === 'create' ? createDefaults(def, target.preset) : undefined), [def, target]);
  const initialValues = useRef<Values | undefined>(createValues);
  const [opened, setOpened] = useState(false);
  const focused = useRef(false);
  const asking = useRef(false);

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
        initialValues.current = values;
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

  // the first field takes the focus as the dialog opens (not after its opening animation) once the
  // record is in; if it cannot take it yet, again when the dialog has finished opening
  useEffect(() => {
    if (!open || loading || focused.current) return;
    const body = bodyRef.current;
    if (body?.contains(document.activeElement) && document.activeElement !== body) {
      focused.current = true;
      return;
    }
    focused.current = focusFirstField(body);
  }, [open, opened, loading]);

  const changed = useCallback((): boolean => {
    const initial = initialValues.current;
    const form = formRef.current;
    if (!initial || !form) return false;
    return formChanged(initial, form.getFieldsValue(true) as Values);
  }, []);

  /** ×, Esc or a click outside: close, after asking when something was changed. */
  const requestClose = useCallback(() => {
    if (!changed()) {
      onClose();
      return;
    }
    if (asking.current) return;
    asking.current = true;
    confirmInDialog(modal, {
      title: t('common.tip'),
      content: t('resource.discardConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'),
      cancelButtonProps: testId('confirm-cancel'),
      onOk: () => onClose(),
      afterClose: () => {
        asking.current = false;
      },
    });
  }, [changed, modal, onClose, t]);

  // Esc: seen on the way down, before an open popup closes itself; the dialog takes it only when none is open
  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape' || e.nativeEvent.isComposing || !open) return;
    if (hasOpenPopup()) return;
    e.stopPropagation();
    requestClose();
  };

  const ctx: FormContext<Rec> = { mode: target.mode, record };

  const submit = async (values: Values): Promise<boolean> => {
    const body = submitValues(def, override?.toSubmit ? override.toSubmit(values, ctx) : values, target.mode);
    if (target.mode === 'edit') body.id = target.id;
    let answer: unknown;
    try {
      answer = await api.submit(body);
    } catch (err) {
      const errors = fieldErrorsOf(err);
      if (errors) formRef.current?.setFields(Object.entries(errors).map(([name, error]) => ({ name, errors: [error] })));
      return false;
    }
    void message.success(t(target.mode === 'create' ? 'resource.added' : 'resource.updated'));
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    onSaved(answer);
    onClose();
    return true;
  };

  const items = formFields(def).map(([name, field]) => {
    const custom = override?.fields?.[name];
    if (custom === false) return null;
    const fieldCtx = { name, field, mode: target.mode, lang, dicts, def, record };
    return <Fragment key={name}>{custom ? custom(fieldCtx) : renderFormField(fieldCtx, t)}</Fragment>;
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
