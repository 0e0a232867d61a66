import { QueryClient } from '@tanstack/react-query';

/** The one TanStack Query cache. Failures are already toasted by the API client: no retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
