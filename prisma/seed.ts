// Demo data, seeded idempotently by `npm start` (see README "Demo data").
import { seedDemoData } from "../lib/demo/seed-demo-data";

seedDemoData()
  .then((summary) => console.log(summary))
  .catch((err) => {
    console.error(`Seeding failed: ${(err as Error).message}`);
    process.exit(1);
  });
