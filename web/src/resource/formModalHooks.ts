import type { ProFormInstance } from '@ant-design/pro-components';
import type { ResourceDef } from '@console/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmationOf, fieldErrorsOf } from '../api/client';
import { testId } from '../testId';
import { confirmInDialog, focusFirstField, hasOpenPopup } from '../dialog/dialogFocus';
import { typeAheadInto } from '../dialog/typeAhead';
import { detailQuery, resourceKeys, type ResourceApi } from './api';
import { formValuesOf, submitValues } from './fieldsOf';
import { formChanged } from './formDirty';
import { confirmDiscard, useUnsavedChanges } from './unsavedChanges';
import type { FormContext, FormOverride, FormTarget, ResourceRecord } from './types';

export type Values = Record<string, unknown>;
type FormRef = RefObject<ProFormInstance<Values> | undefined>;

/** An edit loads its record from `detail` first, into the form and as the values it opened with. */
export function useEditRecord<Rec extends ResourceRecord>(
  def: ResourceDef, target: FormTarget, override: FormOverride<Rec> | undefined, formRef: FormRef, initialValues: RefObject<Values | undefined>, onClose: () => void,
) {
  const queryClient = useQueryClient();
  const [record, setRecord] = useState<Rec>();
  const [loading, setLoading] = useState(target.mode === 'edit');
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
  return { record, loading };
}

/**
 * The first field takes the focus as the dialog opens (not after its opening animation) once the record
 * is in; if it cannot take it yet, again when the dialog has finished opening.
 */
export function useFirstFieldFocus(open: boolean, opened: boolean, loading: boolean, bodyRef: RefObject<HTMLDivElement | null>) {
  const focused = useRef(false);
  useEffect(() => {
    if (!open || loading || focused.current) return;
    const body = bodyRef.current;
    if (body?.contains(document.activeElement) && document.activeElement !== body) {
      focused.current = true;
    } else {
      focused.current = focusFirstField(body);
    }
    // what was typed while the form was on its way goes where the focus is now (or is let go once it is shown)
    if (focused.current || opened) typeAheadInto(focused.current ? document.activeElement : null);
  }, [open, opened, loading]);
}

/** ×, Esc or a click outside close the dialog, after asking when something was changed. */
export function useCloseGuard(formRef: FormRef, initialValues: RefObject<Values | undefined>, open: boolean, onClose: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const asking = useRef(false);
  const changed = useCallback((): boolean => {
    const initial = initialValues.current;
    const form = formRef.current;
    if (!initial || !form) return false;
    return formChanged(initial, form.getFieldsValue(true) as Values);
  }, []);

  // closing the page's tab (or leaving the console) while the dialog is open asks too
  useUnsavedChanges(changed, open);

  const requestClose = useCallback(() => {
    if (!changed()) {
      onClose();
      return;
    }
    if (asking.current) return;
    asking.current = true;
    confirmDiscard(modal, t, onClose, () => {
      asking.current = false;
    });
  }, [changed, modal, onClose, t]);

  // Esc: seen on the way down, before an open popup closes itself; the dialog takes it only when none is open
  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape' || e.nativeEvent.isComposing || !open) return;
    if (hasOpenPopup()) return;
    e.stopPropagation();
    requestClose();
  };
  return { requestClose, onKeyDownCapture };
}

/** Sends the form (an edit with its id); field errors go on the fields, a success says so and closes. */
export function useFormSubmit<Rec extends ResourceRecord>(
  def: ResourceDef, api: ResourceApi<Rec>, target: FormTarget, override: FormOverride<Rec> | undefined, ctx: FormContext<Rec>, formRef: FormRef,
  done: { onSaved: (answer: unknown) => void; onClose: () => void },
) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  /** asks the user about a warning the server raised; true when they accept it */
  const accepts = (text: string) => new Promise<boolean>((resolve) => {
    confirmInDialog(modal, {
      title: t('common.tip'), content: text, okText: t('common.ok'), cancelText: t('common.cancel'),
      okButtonProps: testId('confirm-ok'), cancelButtonProps: testId('confirm-cancel'),
      onOk: () => resolve(true), onCancel: () => resolve(false),
    });
  });
  return async (values: Values): Promise<boolean> => {
    const body = submitValues(def, override?.toSubmit ? override.toSubmit(values, ctx) : values, target.mode, ctx.record);
    if (target.mode === 'edit') body.id = target.id;
    const confirmed: string[] = [];
    let answer: unknown;
    for (;;) {
      try {
        answer = await api.submit(body, { confirm: confirmed });
        break;
      } catch (err) {
        const warning = confirmationOf(err);
        if (warning && !confirmed.includes(warning) && err instanceof Error) {
          if (!(await accepts(err.message))) return false;
          confirmed.push(warning);
          continue;
        }
        const errors = fieldErrorsOf(err);
        if (errors) formRef.current?.setFields(Object.entries(errors).map(([name, error]) => ({ name, errors: [error] })));
        return false;
      }
    }
    void message.success(t(target.mode === 'create' ? 'resource.added' : 'resource.updated'));
    void queryClient.invalidateQueries({ queryKey: resourceKeys.all(def.path) });
    done.onSaved(answer);
    done.onClose();
    return true;
  };
}
