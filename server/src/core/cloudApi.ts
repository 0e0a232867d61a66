/** What the cloud vendors' SDKs (SMS, IoT) need alike. */

/** `https://host:port` → protocol and host as the SDKs take them (no scheme: https). */
export function splitEndpoint(url: string): { https: boolean; host: string } {
  const m = /^(https?):\/\/([^/]+)\/?$/i.exec(url.trim());
  return m ? { https: m[1]!.toLowerCase() === 'https', host: m[2]! } : { https: true, host: url.trim() };
}

/** A vendor SDK's error as one short line (its message, else its code). */
export function sdkErrorReason(e: unknown): string {
  const err = e as { code?: string; message?: string; data?: { Message?: string } };
  return String(err.data?.Message ?? err.message ?? err.code ?? e).slice(0, 300);
}
