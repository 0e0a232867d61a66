import { useCallback, useRef, useState } from 'react';
import { holdTypeAhead, typeAheadInto } from '../../dialog/typeAhead';
import type { FormTarget } from '../types';

export interface FormState {
  target: FormTarget;
  open: boolean;
  /** one per opening: the modal remounts with a fresh form */
  seq: number;
}

/** The add/edit dialog's state: which record, open or closing, and a fresh form per opening. */
export function useFormDialog() {
  const formSeq = useRef(0);
  const [form, setForm] = useState<FormState | null>(null);
  const openForm = useCallback((target: FormTarget) => {
    // the form's code may still be loading: what is typed meanwhile goes to its first field
    holdTypeAhead();
    formSeq.current += 1;
    setForm({ target, open: true, seq: formSeq.current });
  }, []);
  const closeForm = useCallback(() => {
    typeAheadInto(null);
    setForm((f) => f && { ...f, open: false });
  }, []);
  const forgetForm = useCallback(() => setForm(null), []);
  return { form, openForm, closeForm, forgetForm };
}
