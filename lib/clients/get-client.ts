import type { Client } from "@prisma/client";
import { db } from "../db";
import { toClientProfile, type ClientProfile } from "./client-profile";

export interface RegisteredClient {
  id: string;
  name: string;
  secretHash: string | null;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  allowedScopes: string[];
  sectorIdentifier: string;
  /** The rules the client is held to (lib/clients/client-profile.ts). */
  profile: ClientProfile;
  expiresInFormat: "timestamp" | "seconds";
  isPublic: boolean;
  active: boolean;
}

/** Client records are read on every protocol request and change rarely: cached for a bounded time. */
const CACHE_MS = 30_000;
const cache = new Map<string, { at: number; client: RegisteredClient | null }>();

export function toRegisteredClient(row: Client): RegisteredClient {
  return {
    id: row.id,
    name: row.name,
    secretHash: row.secretHash,
    redirectUris: JSON.parse(row.redirectUris) as string[],
    postLogoutRedirectUris: JSON.parse(row.postLogoutRedirectUris) as string[],
    allowedScopes: row.allowedScopes.split(" ").filter(Boolean),
    sectorIdentifier: row.sectorIdentifier,
    profile: toClientProfile(row.profile),
    expiresInFormat: row.expiresInFormat === "seconds" ? "seconds" : "timestamp",
    isPublic: row.isPublic,
    active: row.status === "active",
  };
}

/**
 * The client registered under `clientId`, or null when unknown. Disabled clients are returned with
 * `active: false` so callers can tell "unknown" from "disabled" in logs but refuse both.
 */
export async function getClient({ clientId }: { clientId: string }): Promise<RegisteredClient | null> {
  if (!clientId || clientId.length > 200) return null;
  const hit = cache.get(clientId);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.client;
  const row = await db.client.findUnique({ where: { id: clientId } });
  const client = row ? toRegisteredClient(row) : null;
  cache.set(clientId, { at: Date.now(), client });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return client;
}

/** Drops a client from this process's cache (after the admin CLI changed it in this process). */
export function invalidateClient({ clientId }: { clientId: string }) {
  cache.delete(clientId);
}
