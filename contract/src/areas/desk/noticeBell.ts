/**
 * The header's notice bell: per-user read state of notices, kept on the server.
 *
 * Any signed-in user may call these (the bell is shown to everyone): they see the notices of their own
 * tenant that are released (`releaseTime <= now`), never another tenant's and never an unreleased one.
 */
export const NOTICE_BELL = {
  /** GET → NoticeUnreadCount; `?category_in=1,2` counts only those categories */
  unreadCount: '/api/blade-desk/notice/unread-count',
  /** GET (paged: current, size, category_in) → Page<NoticeBellItem>, newest release first */
  inbox: '/api/blade-desk/notice/inbox',
  /** GET ?id= → the whole notice (with content), when it is released in the caller's tenant */
  inboxDetail: '/api/blade-desk/notice/inbox-detail',
  /** POST ids (comma-joined or an array; query, form or JSON) → true; 404 and nothing marked if one is not visible */
  read: '/api/blade-desk/notice/read',
  /** POST, optionally `category` (comma-joined or an array) → true */
  readAll: '/api/blade-desk/notice/read-all',
} as const;

/** Unread notices are counted exactly up to this many (per call); beyond it `exact` is false. */
export const NOTICE_UNREAD_CAP = 1000;

/** `GET unread-count`: the caller's unread released notices, in total and per category (dictionary key). */
export interface NoticeUnreadCount {
  total: number;
  byCategory: Record<string, number>;
  /** false when there were more than NOTICE_UNREAD_CAP unread notices: the figures are then lower bounds */
  exact: boolean;
}

/** One line of the bell: a notice without its content, and whether the caller has read it. */
export interface NoticeBellItem {
  id: string;
  title: string;
  category: number;
  categoryName: string | null;
  releaseTime: string;
  read: boolean;
}
