/**
 * The notice popover's tabs (spec 2: mail, message, notice) over the `notice` dictionary's categories.
 * The dictionary has no mail or message category (1 release, 2 approval, 3 forward, 4 instruction,
 * 5 appointment, 6 affairs), so they are grouped by what they are like: documents passed on to the
 * reader (approval, forward) are mail; working messages (instruction, affairs) are messages; formal
 * announcements (release, appointment) and any category added later are notices.
 */
export const NOTICE_TABS = ['mail', 'message', 'notice'] as const;
export type NoticeTab = (typeof NOTICE_TABS)[number];

const GROUPED: Readonly<Record<Exclude<NoticeTab, 'notice'>, readonly string[]>> = {
  mail: ['2', '3'],
  message: ['4', '6'],
};

export function tabOfCategory(dictKey: string): NoticeTab {
  if (GROUPED.mail.includes(dictKey)) return 'mail';
  if (GROUPED.message.includes(dictKey)) return 'message';
  return 'notice';
}

/** The dictionary keys that feed each tab (only keys the dictionary has, in its order). */
export function categoriesByTab(dictKeys: readonly string[]): Record<NoticeTab, string[]> {
  const out: Record<NoticeTab, string[]> = { mail: [], message: [], notice: [] };
  for (const key of dictKeys) out[tabOfCategory(key)].push(key);
  return out;
}

/** How many read notice ids are remembered per user (the oldest are forgotten first). */
export const READ_IDS_CAP = 500;

/** Adds ids to a user's read list, newest last, capped. */
export function withRead(read: readonly string[], ids: readonly string[], cap = READ_IDS_CAP): string[] {
  const added = [...new Set(ids)].filter((id) => !read.includes(id));
  if (added.length === 0) return [...read];
  const next = [...read, ...added];
  return next.length > cap ? next.slice(next.length - cap) : next;
}
