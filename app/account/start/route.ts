import { startAccountSignIn } from "@/lib/account/start-account-sign-in";
import { htmlRoute } from "@/lib/http/unavailable-page";

// GET /account/start - the account page's own sign-in through /authorize (docs/account.md)
export const GET = htmlRoute((req: Request) => startAccountSignIn(req));
export const dynamic = "force-dynamic";
