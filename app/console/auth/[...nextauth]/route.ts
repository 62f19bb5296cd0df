import NextAuth from "next-auth";
import { consoleAuthOptions, CONSOLE_SIGN_IN_PATH } from "@/lib/console/console-auth";
import { issuerBase } from "@/lib/http/issuer-base";
import { nextAuthRoute } from "@/lib/http/next-auth-route";

type Context = { params: Promise<{ nextauth: string[] }> };

/**
 * The console's next-auth v4 handler (staff sign-in, lib/console/console-auth.ts). Only what the
 * console uses is open: GET signin (sets next-auth's CSRF cookie and sends the browser to the sign-in
 * page), GET csrf, POST callback/staff (the sign-in form). Sign-out is the console's own action
 * (app/console/sign-out). next-auth v4 takes its base URL from NEXTAUTH_URL, which is the playground's
 * (/api/auth, one per process), so its error and retry redirects are rewritten to the console's page. Form posts
 * only, next-auth's exceptions answered 400 (lib/http/next-auth-route.ts).
 */
async function handle(req: Request, ctx: Context): Promise<Response> {
  const [action, provider, extra] = (await ctx.params).nextauth;
  const allowed = extra === undefined && ((req.method === "GET" && (action === "signin" || action === "csrf") && !provider)
    || (req.method === "POST" && action === "callback" && provider === "staff"));
  if (!allowed) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const res = await (NextAuth(consoleAuthOptions()) as unknown as (r: Request, c: Context) => Promise<Response>)(req, ctx);
  const location = res.headers.get("location");
  if (location) {
    const rewritten = consoleLocation(location);
    if (rewritten !== location) {
      const headers = new Headers(res.headers);
      headers.set("location", rewritten);
      return new Response(null, { status: 303, headers });
    }
  }
  return res;
}

/** next-auth's `…/error?error=X` and `…/signin?csrf=true` (its own pages, which the console does not serve) → the console's sign-in page. */
function consoleLocation(location: string): string {
  const url = new URL(location, issuerBase());
  if (url.pathname.endsWith("/error")) {
    const error = url.searchParams.get("error");
    const e = error === "CredentialsSignin" ? "invalid" : error === "limited" ? error : "other"; // never "locked"
    return `${issuerBase()}${CONSOLE_SIGN_IN_PATH}?e=${e}`;
  }
  if (url.pathname.endsWith("/signin") && url.searchParams.get("csrf") === "true") {
    return `${issuerBase()}${CONSOLE_SIGN_IN_PATH}?e=csrf`;
  }
  return location;
}

export const GET = nextAuthRoute(handle);
export const POST = nextAuthRoute(handle);
export const dynamic = "force-dynamic";
