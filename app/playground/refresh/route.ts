import { refreshTokens } from "@/lib/playground/playground-actions";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => refreshTokens(req);
