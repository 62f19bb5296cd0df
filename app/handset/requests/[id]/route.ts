import { handleAnswerPost } from "@/lib/devices/handle-device-post";
import { htmlRoute } from "@/lib/http/unavailable-page";

// POST /handset/requests/{id} - approve or reject a request on the handset
export const POST = htmlRoute(async (req: Request, { params }: { params: Promise<{ id: string }> }) =>
  handleAnswerPost(req, (await params).id));
export const dynamic = "force-dynamic";
