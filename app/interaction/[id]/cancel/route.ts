import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { cancelSignIn } from "@/lib/interaction/cancel-sign-in";

// POST /interaction/{id}/cancel: the subscriber gives up -> access_denied.
export const POST = interactionPost(cancelSignIn);
