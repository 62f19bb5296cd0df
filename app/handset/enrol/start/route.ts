import { handleEnrolPost } from "@/lib/devices/handle-device-post";
import { htmlRoute } from "@/lib/http/unavailable-page";

// POST /handset/enrol/start - send an enrolment code to the number
export const POST = htmlRoute((req: Request) => handleEnrolPost(req, "start"));
export const dynamic = "force-dynamic";
