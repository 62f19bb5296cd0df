import { forgetApp } from "@/lib/account/account-actions";
import { accountPost } from "@/lib/account/account-post";

// POST /account/forget - "Forget this app": consent withdrawn, the app's tokens revoked, audited
export const POST = accountPost(forgetApp);
export const dynamic = "force-dynamic";
