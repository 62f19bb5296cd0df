import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { resendSignInCode } from "@/lib/interaction/resend-sign-in-code";

// POST /interaction/{id}/resend: a new one-time code (the old one is replaced).
export const POST = interactionPost(resendSignInCode);
