import { startSignIn } from "@/lib/playground/playground-actions";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => startSignIn(req);
