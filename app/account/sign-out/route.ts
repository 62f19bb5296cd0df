import { signOut } from "@/lib/account/account-actions";
import { accountPost } from "@/lib/account/account-post";

// POST /account/sign-out - ends the account session (its access token revoked, its cookie cleared)
export const POST = accountPost(signOut);
export const dynamic = "force-dynamic";
