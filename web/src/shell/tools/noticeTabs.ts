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

/** Unread notices per tab, from the server's counts per category (dictionary key). */
export function unreadByTab(byCategory: Readonly<Record<string, number>>, byTab: Readonly<Record<NoticeTab, readonly string[]>>): Record<NoticeTab, number> {
  const out: Record<NoticeTab, number> = { mail: 0, message: 0, notice: 0 };
  for (const tab of NOTICE_TABS) for (const key of byTab[tab]) out[tab] += byCategory[key] ?? 0;
  return out;
}

/** A count as a tab shows it: nothing for 0, `99+` above 99 (as the badge). */
export function countLabel(n: number): string {
  return n <= 0 ? '' : n > 99 ? '99+' : String(n);
}
