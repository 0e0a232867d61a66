/** The notice configuration of one product as the screen edits it: one row per notice type. */
export interface NoticeRow {
  noticeType: string;
  /** the type's name (the dictionary's value; the key for a saved type the dictionary no longer has) */
  label: string;
  enabled: boolean;
  channels: string[];
  template: string;
}

export interface SavedNotice {
  noticeType?: string | null;
  enabled?: number | null;
  channels?: string | null;
  template?: string | null;
}

/**
 * The notice types (`device/notice/dict`) merged with the product's saved rows (`config/list`): a type
 * never saved is off, without channels or template; a saved type the dictionary no longer names stays listed.
 */
export function mergeNoticeRows(types: readonly { dictKey: string; dictValue: string }[], saved: readonly SavedNotice[]): NoticeRow[] {
  const byType = new Map(saved.filter((s) => s.noticeType).map((s) => [s.noticeType!, s]));
  const rows: NoticeRow[] = types.map((type) => {
    const s = byType.get(type.dictKey);
    byType.delete(type.dictKey);
    return {
      noticeType: type.dictKey,
      label: type.dictValue,
      enabled: s?.enabled === 1,
      channels: (s?.channels ?? '').split(',').map((c) => c.trim()).filter(Boolean),
      template: s?.template ?? '',
    };
  });
  for (const [noticeType, s] of byType) {
    rows.push({ noticeType, label: noticeType, enabled: s.enabled === 1, channels: (s.channels ?? '').split(',').filter(Boolean), template: s.template ?? '' });
  }
  return rows;
}

/** The save body's items: channels comma-joined, a blank template as none. */
export function noticeItems(rows: readonly NoticeRow[]) {
  return rows.map((r) => ({ noticeType: r.noticeType, enabled: r.enabled ? 1 as const : 0 as const, channels: r.channels.join(','), template: r.template.trim() || null }));
}

/** Whether the edited rows differ from the saved ones in what a save would send. */
export function noticesChanged(saved: readonly NoticeRow[], edited: readonly NoticeRow[]): boolean {
  return JSON.stringify(noticeItems(saved)) !== JSON.stringify(noticeItems(edited));
}

/** The first notice switched on without a channel (it would reach no one; the server refuses it too). */
export function silentNotice(rows: readonly NoticeRow[]): NoticeRow | undefined {
  return rows.find((r) => r.enabled && r.channels.length === 0);
}
