import { useCallback, useState } from 'react';

/**
 * Open state of a lazily loaded dialog: `mounted` turns true on the first opening and stays true,
 * so the dialog's chunk loads only when needed and its closing animation still plays.
 */
export function useLazyDialog() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const show = useCallback(() => {
    setMounted(true);
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);
  return { open, mounted, show, hide };
}
