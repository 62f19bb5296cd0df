import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { isHttpsIssuer } from "../http/security-headers";
import { clientIp } from "../http/client-ip";
import { applyNextAuthUrl } from "../playground/playground-settings";
import { verifyStaffSignIn } from "./verify-staff-sign-in";
import { CONSOLE_SESSION_IDLE_SECONDS, consoleCookieNames, consoleSecret, type ConsoleJwt } from "./console-session";

/** Where the console's next-auth handler lives (app/console/auth/[...nextauth]/route.ts). */
export const CONSOLE_AUTH_BASE = "/console/auth";
export const CONSOLE_SIGN_IN_PATH = "/console/sign-in";

export { CONSOLE_SESSION_IDLE_SECONDS, CONSOLE_SESSION_MAX_SECONDS, consoleCookieNames, consoleSecret,
  type ConsoleJwt } from "./console-session";

let options: NextAuthOptions | undefined;

/**
 * next-auth v4 with a Credentials provider for the operator's staff (username, password, TOTP code;
 * lib/console/verify-staff-sign-in.ts). Sessions are next-auth's encrypted JWT cookie, short
 * (CONSOLE_SESSION_IDLE_SECONDS, renewed on use up to CONSOLE_SESSION_MAX_SECONDS) and bound to
 * the console: cookies on path /console, their own key. Every page re-reads the member from the
 * database (lib/console/current-staff.ts): a disabled member, a role change or a reset ends the session
 * at once (sessionVersion). Never the subscribers' sign-in: different cookies, key and table.
 */
export function consoleAuthOptions(): NextAuthOptions {
  applyNextAuthUrl();
  const names = consoleCookieNames();
  const secure = isHttpsIssuer();
  const cookie = (name: string, httpOnly = true) =>
    ({ name, options: { httpOnly, sameSite: "lax" as const, path: "/console", secure } });
  options ??= {
    secret: consoleSecret(),
    session: { strategy: "jwt", maxAge: CONSOLE_SESSION_IDLE_SECONDS, updateAge: 60 },
    jwt: { maxAge: CONSOLE_SESSION_IDLE_SECONDS },
    useSecureCookies: secure,
    cookies: {
      sessionToken: cookie(names.sessionToken),
      csrfToken: cookie(names.csrfToken),
      callbackUrl: cookie(names.callbackUrl),
    },
    pages: { signIn: `${CONSOLE_SIGN_IN_PATH}?fresh=1`, error: CONSOLE_SIGN_IN_PATH, signOut: CONSOLE_SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        id: "staff",
        name: "Staff",
        credentials: { username: { type: "text" }, password: { type: "password" }, code: { type: "text" } },
        async authorize(credentials, req) {
          const headers = new Headers();
          for (const [k, v] of Object.entries(req.headers ?? {})) if (typeof v === "string") headers.set(k, v);
          const result = await verifyStaffSignIn({ username: String(credentials?.username ?? ""),
            password: String(credentials?.password ?? ""), code: String(credentials?.code ?? ""), ip: clientIp(headers) });
          if (result === "limited") throw new Error(result); // a locked account is answered as `invalid`
          if (result === "invalid") return null;
          return { id: result.id, name: result.username, role: result.role, sv: result.sessionVersion };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        const jwt = token as ConsoleJwt;
        if (user) {
          const u = user as unknown as { id: string; sv: number };
          return { sub: u.id, name: user.name, staffId: u.id, sv: u.sv, started: Math.floor(Date.now() / 1000) };
        }
        return jwt;
      },
      async redirect({ url, baseUrl }) {
        const target = new URL(url, baseUrl);
        return target.origin === new URL(baseUrl).origin && target.pathname.startsWith("/console") ? target.toString()
          : new URL("/console", baseUrl).toString();
      },
    },
  };
  return options;
}
