// The checkout.* tools: checkout sessions, the core every agentic-commerce door (UCP, ACP) speaks through.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import get from "./get.ts";
import update from "./update.ts";
import complete from "./complete.ts";
import cancel from "./cancel.ts";
import getOrder from "./get_order.ts";
import placedOrder from "./placed_order.ts";
import agreement from "./agreement.ts";

const tools: AnyTool[] = [create, get, update, complete, cancel, getOrder, placedOrder, agreement];

export default tools;
