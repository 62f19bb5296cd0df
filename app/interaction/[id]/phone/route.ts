import { awaitPhoneApproval } from "@/lib/interaction/await-phone-approval";
import { interactionPost } from "@/lib/interaction/handle-interaction-post";
import { startPhoneApproval } from "@/lib/interaction/start-phone-approval";

// POST /interaction/{id}/phone: "Approve on your phone instead" -> the request goes to the handset.
export const POST = interactionPost(startPhoneApproval);

// GET /interaction/{id}/phone: the waiting screen's refresh; waits (bounded) for the handset's answer.
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return awaitPhoneApproval(req, { id: (await params).id });
}
export const dynamic = "force-dynamic";
