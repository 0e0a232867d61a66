import { API } from '@console/contract/paths';

/** How often /version.json is asked while the console is open (also on every window focus). */
export const VERSION_POLL_MS = 5 * 60_000;

/**
 * Decides whether a fetched version is a new deployment worth announcing: it differs from the version
 * the page loaded with, and was not announced already. `baseline` null: the first answer becomes it.
 */
export function versionChange(baseline: string | null, fetched: string, announced: string | null): 'baseline' | 'new' | 'same' {
  if (baseline === null) return 'baseline';
  return fetched !== baseline && fetched !== announced ? 'new' : 'same';
}

async function fetchVersion(): Promise<string | null> {
  try {
    const res = await fetch(API.version, { cache: 'no-store' });
    if (!res.ok) return null;
    const body = (await res.json()) as { version?: unknown };
    return typeof body.version === 'string' ? body.version : null;
  } catch {
    return null;
  }
}

// per page load: the version this page's code belongs to, and the newest one announced
let baseline: string | null = null;
let announced: string | null = null;
let started: Promise<void> | null = null;

async function check(onNewVersion: (version: string) => void): Promise<void> {
  const version = await fetchVersion();
  if (version === null) return;
  const change = versionChange(baseline, version, announced);
  if (change === 'baseline') baseline = version;
  else if (change === 'new') {
    announced = version;
    onNewVersion(version);
  }
}

/** Learns the running version (first call), then checks every 5 min and on focus; returns the stop function. */
export function watchVersion(onNewVersion: (version: string) => void): () => void {
  started ??= check(onNewVersion);
  const run = () => void started?.then(() => check(onNewVersion));
  const timer = window.setInterval(run, VERSION_POLL_MS);
  window.addEventListener('focus', run);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener('focus', run);
  };
}
