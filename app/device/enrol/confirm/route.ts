import { handleEnrolPost } from "@/lib/devices/handle-device-post";

// POST /device/enrol/confirm - check the code, register the handset (op_device cookie)
export const POST = (req: Request) => handleEnrolPost(req, "confirm");
export const dynamic = "force-dynamic";
