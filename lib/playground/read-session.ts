import { getToken } from "next-auth/jwt";
import type { PlaygroundJwt } from "./auth-options";
import { nextAuthSecret, sessionCookieName } from "./playground-settings";

/** The playground's decrypted next-auth JWT from the browser's cookies, or null when signed out. */
export async function readPlaygroundSession(cookies: Record<string, string>): Promise<PlaygroundJwt | null> {
  const cookieName = sessionCookieName();
  const req = { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"];
  return (await getToken({ req, secret: nextAuthSecret(), cookieName, logger: { error() {}, warn() {}, debug() {} } as never })) as PlaygroundJwt | null;
}
