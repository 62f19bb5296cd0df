import { handleMobileWait } from "@/lib/oauth/authorize/handle-mobile-wait";

// GET /authorize/wait/{id} - a prompt=mobile request keeps waiting for the handset's answer
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleMobileWait(req, { id: (await params).id });
}
export const dynamic = "force-dynamic";
