import { streamDeviceEvents } from "@/lib/devices/stream-device-events";

// GET /handset/events - Server-Sent Events: the handset's pending requests changed
export const GET = (req: Request) => streamDeviceEvents(req);
export const dynamic = "force-dynamic";
