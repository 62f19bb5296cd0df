import { consolePost } from "@/lib/console/console-post";
import { createClientAction } from "@/lib/console/clients/client-actions";

// POST /console/clients/create - register a client, its secret shown once (admin only).
export const POST = consolePost("admin", createClientAction);
