import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { startSignIn } from "@/lib/interaction/start-sign-in";

// POST /interaction/{id}/msisdn: the mobile number (or the hinted one) -> a one-time code is sent.
export const POST = interactionPost(startSignIn);
