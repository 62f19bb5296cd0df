import { consolePost } from "@/lib/console/console-post";
import { enableClientAction } from "@/lib/console/clients/client-actions";

// POST /console/clients/enable - enable a disabled client (admin only).
export const POST = consolePost("admin", enableClientAction);
