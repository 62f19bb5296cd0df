import { removeHandset } from "@/lib/account/account-actions";
import { accountPost } from "@/lib/account/account-post";

// POST /account/remove-handset - the subscriber removes one of their handsets, audited
export const POST = accountPost(removeHandset);
export const dynamic = "force-dynamic";
