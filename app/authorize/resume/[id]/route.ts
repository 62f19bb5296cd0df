import { handleResume } from "@/lib/oauth/authorize/handle-resume";

// GET /authorize/resume/{id} - where the interaction screens return after each step (303)
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }) {
  return handleResume(req, { id: (await params).id });
}
export const dynamic = "force-dynamic";
