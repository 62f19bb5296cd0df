import { handleLinkAnswerPost } from "@/lib/devices/handle-device-post";
import { htmlRoute } from "@/lib/http/unavailable-page";

// POST /handset/approve/{token}/answer - approve or reject through the text-message link, after the code
export const POST = htmlRoute(async (req: Request, { params }: { params: Promise<{ token: string }> }) =>
  handleLinkAnswerPost(req, (await params).token));
export const dynamic = "force-dynamic";
