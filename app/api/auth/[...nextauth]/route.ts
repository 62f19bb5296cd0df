import NextAuth from "next-auth";
import { authOptions } from "@/lib/playground/auth-options";
import { ensurePlaygroundClientOnce } from "@/lib/playground/ensure-playground-client";
import { applyNextAuthUrl } from "@/lib/playground/playground-settings";
import { nextAuthRoute } from "@/lib/http/next-auth-route";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth v4's app-router handler for the playground (the relying party inside the product); form posts only,
// its exceptions answered 400 (lib/http/next-auth-route.ts).
const handler = nextAuthRoute(handle);
async function handle(req: Request, context: Context): Promise<Response> {
  applyNextAuthUrl();
  await ensurePlaygroundClientOnce();
  return NextAuth(req as never, context as never, authOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
