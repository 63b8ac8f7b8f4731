import { isLoopback } from '../config/api-config';

/**
 * Against DNS rebinding: a page on a foreign site whose name now resolves to 127.0.0.1 reaches a local
 * gateway, and its browser sends that site's Origin. A request with an Origin is let through only from
 * the gateway's own loopback origins (http://127.0.0.1:<port>, http://localhost:<port>, http://[::1]:<port>)
 * or an origin PALIMPSEST_CORS_ORIGINS allows. Without an Origin (command-line and SDK clients, which
 * are not browsers) nothing is checked here; the bearer token still is.
 */
export function originAllowed(origin: string | undefined, port: number, corsOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (corsOrigins.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file:// page) or no origin at all
  }
  if (url.origin !== origin || url.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isLoopback(host) && Number(url.port || 80) === port;
}
