import type { ConsoleConfig } from '@console/contract';
import { API } from '@console/contract/paths';
import { setDisplayZone } from '../time/displayZone';
import { request } from './client';

/**
 * The console switches (`/api/app/pub/console-config`), loaded once per page load (main.tsx starts it).
 * Its `timeZone` becomes the display zone of the pickers and the error log.
 */
export const consoleConfigQuery = {
  queryKey: ['console-config'] as const,
  queryFn: async () => {
    const config = await request<ConsoleConfig>(API.consoleConfig, { silent: true });
    setDisplayZone(config.timeZone);
    return config;
  },
  staleTime: Infinity,
};
