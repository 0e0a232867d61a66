import type { TenantByDomain } from '@console/contract';
import { API } from '@console/contract/paths';
import { request } from './client';

/** The tenant that owns the site's domain (`tenant/info?domain=`), or none: its users need not type the tenant id. */
export function tenantByDomainQuery(host: string) {
  return {
    queryKey: ['tenant-by-domain', host] as const,
    queryFn: () => request<TenantByDomain>(API.tenantByDomain, { query: { domain: host }, silent: true }),
    staleTime: Infinity,
  };
}
