import { consolePost } from "@/lib/console/console-post";
import { rotateKeysAction } from "@/lib/console/keys/key-actions";

// POST /console/keys/rotate - rotate the sig or enc key (admin only).
export const POST = consolePost("admin", rotateKeysAction);
