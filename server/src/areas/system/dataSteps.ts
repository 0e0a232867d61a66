import type { DataStep } from '../../core/area.js';
import { nextId } from '../../core/ids.js';
import { DEFAULT_AGREEMENTS } from './agreements.js';
import { agreement } from './tables.js';

/** The system's seed beside the platform's foundation (seed/steps.ts): the default agreements. */
export const SYSTEM_DATA_STEPS: DataStep[] = [
  {
    name: '0003-default-agreements',
    async run(tx) {
      const publishTime = new Date();
      await tx.insert(agreement).values(DEFAULT_AGREEMENTS.map((a) => ({ id: nextId(), ...a, version: '1.0', publishTime })));
    },
  },
];
