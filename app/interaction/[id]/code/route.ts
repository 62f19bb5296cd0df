import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { verifySignInCode } from "@/lib/interaction/verify-sign-in-code";

// POST /interaction/{id}/code: one-time code (+ PIN at level 3) -> session, then /authorize/resume/{id}.
export const POST = interactionPost(verifySignInCode);
