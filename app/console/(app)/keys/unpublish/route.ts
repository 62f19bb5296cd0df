import { consolePost } from "@/lib/console/console-post";
import { unpublishKeyAction } from "@/lib/console/keys/key-actions";

// POST /console/keys/unpublish - remove a retired key from the JWKS early, confirmed (admin only).
export const POST = consolePost("admin", unpublishKeyAction);
