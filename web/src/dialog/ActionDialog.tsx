import { ModalForm, type ProFormInstance } from '@ant-design/pro-components';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf } from '../api/client';
import { testId } from '../testId';

type Values = Record<string, unknown>;

export interface ActionDialogProps {
  title: ReactNode;
  /** `<testid>` on the form, `<testid>-submit` / `<testid>-cancel` on its buttons */
  testid: string;
  open: boolean;
  onClose: () => void;
  initialValues?: Values;
  /** the call; a rejection keeps the dialog open (the client has toasted it; field errors go on the fields) */
  onSubmit: (values: Values) => Promise<unknown>;
  width?: number;
  children: ReactNode;
}

/**
 * A small form dialog of a screen's own action (a setting, a grant): OK submits and closes once the call
 * succeeds, the server's field errors land on their fields.
 */
export function ActionDialog({ title, testid, open, onClose, initialValues, onSubmit, width = 560, children }: ActionDialogProps) {
  const { t } = useTranslation();
  const formRef = useRef<ProFormInstance<Values>>(undefined);
  const finish = async (values: Values): Promise<boolean> => {
    try {
      await onSubmit(values);
    } catch (err) {
      const errors = fieldErrorsOf(err);
      if (errors) formRef.current?.setFields(Object.entries(errors).map(([name, error]) => ({ name, errors: [error] })));
      return false;
    }
    onClose();
    return true;
  };
  return (
    <ModalForm<Values>
      title={title}
      open={open}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      formRef={formRef}
      name={testid}
      initialValues={initialValues}
      onFinish={finish}
      width={width}
      layout="horizontal"
      labelCol={{ flex: '120px' }}
      labelWrap
      dateFormatter="string"
      omitNil={false}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      submitter={{
        searchConfig: { submitText: t('common.ok'), resetText: t('common.cancel') },
        submitButtonProps: testId(`${testid}-submit`),
        resetButtonProps: testId(`${testid}-cancel`),
      }}
      data-testid={testid}
    >
      {children}
    </ModalForm>
  );
}
