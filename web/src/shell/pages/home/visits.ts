import type { MenuRoute } from '@console/contract';
import { menuTrail } from '../../layout/menuTree';

/**
 * Visits per menu page, counted in this browser for each user (tenant + user id), for the home page's
 * shortcuts to the most used screens.
 */
export type VisitCounts = Record<string, number>;
type VisitStore = Record<string, VisitCounts>;

const KEY = 'saber-visits';
export const SHORTCUT_COUNT = 8;
/** Paths kept per user: enough to survive menu changes without letting the store grow without bound. */
const MAX_PATHS = 50;

/** The menu page (a leaf with a path) a path belongs to, or undefined. */
export function menuPageOf(menu: readonly MenuRoute[], path: string): MenuRoute | undefined {
  const node = menuTrail(menu, path).at(-1);
  return node && node.path && !(node.children?.length) ? node : undefined;
}

/** Counts one visit, keeping the most visited paths only. */
export function countVisit(counts: VisitCounts, path: string): VisitCounts {
  const next = { ...counts, [path]: (counts[path] ?? 0) + 1 };
  const others = Object.keys(next).filter((p) => p !== path);
  if (others.length < MAX_PATHS) return next;
  const kept = others.sort((a, b) => next[b]! - next[a]!).slice(0, MAX_PATHS - 1);
  return Object.fromEntries([path, ...kept].map((p) => [p, next[p]!]));
}

/** The most visited pages still in the menu, most visited first (ties by path), at most `limit`. */
export function topShortcuts(counts: VisitCounts, menu: readonly MenuRoute[], limit = SHORTCUT_COUNT): MenuRoute[] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a, n], [b, m]) => m - n || a.localeCompare(b))
    .map(([path]) => menuPageOf(menu, path))
    .filter((node): node is MenuRoute => node !== undefined)
    .slice(0, limit);
}

export function userKey(tenantId: string, userId: string): string {
  return `${tenantId}:${userId}`;
}

const CHANGED = 'saber-visits-changed';

/** Follows the stored counts (this tab's visits and other tabs'): for useSyncExternalStore. */
export function subscribeVisits(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY) onChange();
  };
  window.addEventListener(CHANGED, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The stored counts as text: a stable snapshot that changes only when a visit is counted. */
export function visitsSnapshot(): string {
  try {
    return localStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

function parseStore(raw: string): VisitStore {
  try {
    const parsed: unknown = JSON.parse(raw || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as VisitStore) : {};
  } catch {
    return {};
  }
}

function readStore(): VisitStore {
  return parseStore(visitsSnapshot());
}

/** One user's counts, from the stored text (visitsSnapshot) or the store itself. */
export function readVisits(user: string, raw = visitsSnapshot()): VisitCounts {
  const counts = parseStore(raw)[user];
  return typeof counts === 'object' && counts !== null ? counts : {};
}

export function recordVisit(user: string, path: string): void {
  const store = readStore();
  store[user] = countVisit(readVisits(user), path);
  try {
    localStorage.setItem(KEY, JSON.stringify(store));
    window.dispatchEvent(new Event(CHANGED));
  } catch {
    /* storage full or disabled: shortcuts are a convenience */
  }
}
