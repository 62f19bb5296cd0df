import { unavailablePage } from "@/lib/http/unavailable-page";

// GET /unavailable?retry=/interaction/{id} - the screens' 503 page while the database is unavailable
// (lib/http/unavailable-screen.ts); `retry` must be one of our screen paths, else no link is shown.
export const GET = (req: Request) =>
  unavailablePage({ retryPath: new URL(req.url).searchParams.get("retry") ?? undefined });
export const dynamic = "force-dynamic";
