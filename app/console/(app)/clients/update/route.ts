import { consolePost } from "@/lib/console/console-post";
import { updateClientAction } from "@/lib/console/clients/client-actions";

// POST /console/clients/update - save a client's settings (admin only).
export const POST = consolePost("admin", updateClientAction);
