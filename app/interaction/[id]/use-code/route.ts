import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { withdrawPhoneApproval } from "@/lib/interaction/withdraw-phone-approval";

// POST /interaction/{id}/use-code: "Enter a code instead" -> the phone request is withdrawn.
export const POST = interactionPost(withdrawPhoneApproval);
