import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { restartSignIn } from "@/lib/interaction/restart-sign-in";

// POST /interaction/{id}/restart: "Use another number".
export const POST = interactionPost(restartSignIn);
