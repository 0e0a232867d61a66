export interface TabEntry {
  key: string;
  label: string;
}

/** The tabs whose label or path contains the text (case-insensitive), in bar order. */
export function matchTabs(tabs: readonly TabEntry[], text: string): TabEntry[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...tabs];
  return tabs.filter((tab) => tab.label.toLowerCase().includes(q) || tab.key.toLowerCase().includes(q));
}
