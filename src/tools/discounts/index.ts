// The discounts.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";
import create from "./create.ts";
import toggle from "./toggle.ts";
import tryApply from "./try_apply.ts";
import get from "./get.ts";
import update from "./update.ts";
import remove from "./delete.ts";
import listStatus from "./list_status.ts";

const tools: AnyTool[] = [list, create, toggle, tryApply, get, update, remove, listStatus];

export default tools;
