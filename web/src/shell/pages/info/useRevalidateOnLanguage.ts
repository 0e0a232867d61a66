import type { FormInstance } from 'antd';
import { useEffect } from 'react';
import { useLang } from '../../../i18n';

/** Messages already shown were written in the previous language: validate those fields again. */
export function useRevalidateOnLanguage(form: FormInstance): void {
  const lang = useLang();
  useEffect(() => {
    const invalid = form.getFieldsError().filter((f) => f.errors.length > 0).map((f) => f.name);
    if (invalid.length > 0) form.validateFields(invalid).catch(() => undefined);
  }, [lang, form]);
}
