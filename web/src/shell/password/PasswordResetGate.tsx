import type { UserProfile } from '@console/contract';
import { API } from '@console/contract/paths';
import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { request } from '../../api/client';
import type { UserInfo } from '../../store/session';
import { useSession } from '../../store/session';
import { lazy } from '../chunkLoad';

// only users holding an initial or reset password load the dialog (and MD5, and the form)
const ForcedPasswordDialog = lazy(() => import('./ForcedPasswordDialog').then((m) => ({ default: m.ForcedPasswordDialog })));

/** The gate's query: the signed-in user's profile (`user/info`), which says whether the password must change. */
export function passwordResetQuery(user: UserInfo | null) {
  return {
    queryKey: ['password-reset', user?.tenant_id, user?.user_id],
    queryFn: () => request<UserProfile>(API.userProfile, { silent: true }),
    enabled: Boolean(user),
    staleTime: Infinity,
  };
}

/**
 * A user whose password is the initial one (or was reset by an administrator) changes it before anything
 * else: `user/info` says so (`passwordReset`) once per page load, and the server refuses their writes
 * meanwhile. Mounted by the layout; the dialog's chunk loads only for those users.
 */
export function PasswordResetGate() {
  const user = useSession((s) => s.userInfo);
  const info = useQuery(passwordResetQuery(user));
  if (info.data?.passwordReset !== true) return null;
  return (
    <Suspense fallback={null}>
      <ForcedPasswordDialog />
    </Suspense>
  );
}
