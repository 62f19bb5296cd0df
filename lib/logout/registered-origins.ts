import { db } from "../db";

const CACHE_MS = 30_000;
let cached: { at: number; origins: string[] } | undefined;

/**
 * The web origins (https, or http on loopback as registration allows) of the redirect URIs of every
 * active client: who may frame the check_session_iframe (its `frame-ancestors`). Cached 30 s per
 * process, as client records are (lib/clients/get-client.ts); one query per refresh.
 */
export async function registeredClientOrigins(now = Date.now()): Promise<string[]> {
  if (cached && now - cached.at < CACHE_MS) return cached.origins;
  const rows = await db.client.findMany({ where: { status: "active" }, select: { redirectUris: true } });
  const origins = new Set<string>();
  for (const row of rows) {
    for (const uri of JSON.parse(row.redirectUris) as string[]) {
      try {
        const url = new URL(uri);
        if (url.protocol === "https:" || url.protocol === "http:") origins.add(url.origin);
      } catch {
        // not a URL: never framed
      }
    }
  }
  cached = { at: now, origins: [...origins].sort() };
  return cached.origins;
}
