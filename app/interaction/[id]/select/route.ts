import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { selectAccount } from "@/lib/interaction/select-account";

// POST /interaction/{id}/select: an account signed in in this browser, or another number.
export const POST = interactionPost(selectAccount);
