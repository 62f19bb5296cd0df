import { handleEnrolPost } from "@/lib/devices/handle-device-post";

// POST /device/enrol/start - send an enrolment code to the number
export const POST = (req: Request) => handleEnrolPost(req, "start");
export const dynamic = "force-dynamic";
