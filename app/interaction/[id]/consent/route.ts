import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { recordConsent } from "@/lib/interaction/record-consent";

// POST /interaction/{id}/consent: Allow or Deny, then /authorize/resume/{id}.
export const POST = interactionPost(recordConsent);
