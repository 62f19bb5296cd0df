import { consolePost } from "@/lib/console/console-post";
import { disableClientAction } from "@/lib/console/clients/client-actions";

// POST /console/clients/disable - disable a client, revoking its tokens (admin only).
export const POST = consolePost("admin", disableClientAction);
