// staff.sign_out (internal): ends a staff session (the admin door's sign-out, and the old session a new sign-in replaces),
// audited once; a session already ended changes nothing.
import { z } from "zod";
import { defineTool, UPDATE } from "../tool.ts";
import { sessionSnapshot } from "./sessions.ts";

export default defineTool({
  name: "staff.sign_out",
  description: "End a staff session. Returns {ended} (false when it had ended already).",
  input: z.strictObject({ sessionId: z.string().min(1).max(100).describe("The staff session's id.") }),
  output: z.strictObject({ ended: z.boolean() }),
  scope: "staff:write",
  anonymous: true,
  audited: true,
  internal: true,
  annotations: UPDATE,
  examples: [{ sessionId: "c000000000000000000000000" }],
  async handler({ sessionId }, ctx) {
    const before = await ctx.db.staffSession.findUnique({ where: { id: sessionId } });
    // Only a live session is ended (one ended meanwhile by another request stays as it was).
    const ended = before && !before.revokedAt ? await ctx.db.staffSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: ctx.now() } }) : null;
    if (!before || !ended?.count) {
      ctx.unchanged();
      return { ended: false };
    }
    const after = await ctx.db.staffSession.findUniqueOrThrow({ where: { id: sessionId } });
    await ctx.audit({ subjectType: "staffSession", subjectId: sessionId, before: sessionSnapshot(before), after: sessionSnapshot(after) });
    return { ended: true };
  },
});
