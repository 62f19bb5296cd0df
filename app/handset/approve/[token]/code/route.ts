import { handleLinkCodePost } from "@/lib/devices/handle-device-post";
import { htmlRoute } from "@/lib/http/unavailable-page";

// POST /handset/approve/{token}/code - the code of the text message (the no-handset fallback of CIBA)
export const POST = htmlRoute(async (req: Request, { params }: { params: Promise<{ token: string }> }) =>
  handleLinkCodePost(req, (await params).token));
export const dynamic = "force-dynamic";
