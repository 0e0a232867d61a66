import type { ConsoleConfig } from '@console/contract';
import { API } from '@console/contract/paths';
import { request } from './client';

/** The console switches (`/api/app/pub/console-config`), loaded once per page load. */
export const consoleConfigQuery = {
  queryKey: ['console-config'] as const,
  queryFn: () => request<ConsoleConfig>(API.consoleConfig, { silent: true }),
  staleTime: Infinity,
};
