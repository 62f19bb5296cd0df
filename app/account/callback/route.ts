import { finishAccountSignIn } from "@/lib/account/finish-account-sign-in";
import { htmlRoute } from "@/lib/http/unavailable-page";

// GET /account/callback - the account client's redirect URI: the code redeemed server-side (docs/account.md)
export const GET = htmlRoute((req: Request) => finishAccountSignIn(req));
export const dynamic = "force-dynamic";
