/** File links of `file` / `image` fields (kept out of display.ts, which the first page loads). */

/** The name a file link shows: its last path segment. */
export function fileName(link: string): string {
  const path = link.split(/[?#]/)[0] ?? link;
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || link;
  } catch {
    return last || link;
  }
}

/** A link that may go into href/src: the console's own paths and http(s) URLs only. */
export function safeLink(link: string): string | undefined {
  return /^(\/(?!\/)|https?:\/\/)/i.test(link) ? link : undefined;
}
