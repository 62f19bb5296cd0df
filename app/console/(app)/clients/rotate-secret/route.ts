import { consolePost } from "@/lib/console/console-post";
import { rotateSecretAction } from "@/lib/console/clients/client-actions";

// POST /console/clients/rotate-secret - issue a new client secret, shown once (admin only).
export const POST = consolePost("admin", rotateSecretAction);
