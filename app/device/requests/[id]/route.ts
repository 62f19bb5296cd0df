import { handleAnswerPost } from "@/lib/devices/handle-device-post";

// POST /device/requests/{id} - approve or reject a request on the handset
export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleAnswerPost(req, (await params).id);
}
export const dynamic = "force-dynamic";
