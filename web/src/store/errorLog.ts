import type { WebErrorRecord } from '@console/contract/envelope';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { appendCapped } from '../shell/tools/errorRecord';

/** The local error log (spec 2 "Local error-log panel"): unhandled UI errors, kept across reloads until uploaded or cleared. */
interface ErrorLogState {
  records: WebErrorRecord[];
  add: (record: WebErrorRecord) => void;
  /** removes these records (the ones just uploaded), keeping any captured meanwhile */
  remove: (sent: readonly WebErrorRecord[]) => void;
  clear: () => void;
}

export const ERROR_LOG_STORAGE_KEY = 'saber-error-log';

export const useErrorLog = create<ErrorLogState>()(
  persist(
    (set) => ({
      records: [],
      add: (record) => set((s) => ({ records: appendCapped(s.records, record) })),
      remove: (sent) => {
        const gone = new Set(sent);
        set((s) => ({ records: s.records.filter((r) => !gone.has(r)) }));
      },
      clear: () => set({ records: [] }),
    }),
    { name: ERROR_LOG_STORAGE_KEY, version: 1 },
  ),
);
