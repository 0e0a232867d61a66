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
 * The iframe's sandbox. A page of this console's own origin is framed without `allow-same-origin`: with
 * scripts allowed as well, it could otherwise reach into the console and lift the sandbox.
 */
export function sandboxFor(url: URL, consoleOrigin: string): string {
  const base = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads';
  return url.origin === consoleOrigin ? base : `${base} allow-same-origin`;
}
