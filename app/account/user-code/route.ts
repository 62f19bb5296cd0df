import { changeUserCode } from "@/lib/account/account-actions";
import { accountPost } from "@/lib/account/account-post";

// POST /account/user-code - the subscriber sets, changes or removes their CIBA user code (docs/ciba.md), audited
export const POST = accountPost(changeUserCode);
export const dynamic = "force-dynamic";
