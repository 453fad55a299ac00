// staff.list: the staff users with their scopes and last sign-in, never a password hash.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { staffView } from "./schemas.ts";
import { listStaff } from "./staff-users.ts";

export default defineTool({
  name: "staff.list",
  description:
    "Staff users, oldest first (never a password). Returns [{id, email, scopes (\"*\" = all), createdAt, lastLoginAt}].",
  input: z.strictObject({}),
  output: z.array(staffView),
  scope: "staff:read",
  anonymous: false,
  audited: false,
  annotations: READ,
  examples: [{}],
  handler: (_input, ctx) => listStaff(ctx.db),
});
