import { logOut } from "@/lib/playground/playground-actions";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => logOut(req);
