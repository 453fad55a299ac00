// The return event integrators' webhooks receive (return.requested) and its data: the return as returns.get shows it.
import type { ToolContext } from "../context.ts";
import { emitEvent } from "../webhooks/endpoints.ts";
import { toReturnView, type ReturnWithItems } from "./schemas.ts";

export function emitReturnRequested(ctx: ToolContext, ret: ReturnWithItems): Promise<void> {
  return emitEvent(ctx, "return.requested", toReturnView(ret));
}
