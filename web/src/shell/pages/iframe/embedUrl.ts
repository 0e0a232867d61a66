/** Embedded external pages (/myiframe/:routerPath): which URLs may be framed, and how. */

export const IFRAME_ROUTE = '/myiframe';

/** The URL when it is an absolute http(s) URL; null for anything else (javascript:, data:, relative…). */
export function embeddableUrl(raw: string | null | undefined): URL | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** The console route showing a URL in a frame; `routerPath` names the entry (a menu code). */
export function iframeRoute(routerPath: string, url: URL): string {
  return `${IFRAME_ROUTE}/${encodeURIComponent(routerPath || 'page')}?src=${encodeURIComponent(url.href)}`;
}

/**
 * The iframe's sandbox. Pages keep their own origin (`allow-same-origin`): without it a page of this
 * console (another screen, the API docs) loads its module scripts and calls its API from an opaque
 * origin, which CORS refuses, so it never renders. Framing our own origin so is safe because everything
 * it serves is the console's own code: uploaded files come with `Content-Security-Policy: sandbox`,
 * which keeps them in an opaque origin without script whatever the frame allows.
 */
export function sandboxFor(_url: URL, _consoleOrigin: string): string {
  return 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads allow-same-origin';
}
