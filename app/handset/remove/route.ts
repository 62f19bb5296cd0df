import { handleRemovePost } from "@/lib/devices/handle-device-post";

// POST /handset/remove - the subscriber removes (revokes) this handset
export const POST = (req: Request) => handleRemovePost(req);
export const dynamic = "force-dynamic";
