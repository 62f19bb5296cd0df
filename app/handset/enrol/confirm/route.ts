import { handleEnrolPost } from "@/lib/devices/handle-device-post";
import { htmlRoute } from "@/lib/http/unavailable-page";

// POST /handset/enrol/confirm - check the code, register the handset (op_device cookie)
export const POST = htmlRoute((req: Request) => handleEnrolPost(req, "confirm"));
export const dynamic = "force-dynamic";
