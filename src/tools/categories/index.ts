// The categories.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";
import upsert from "./upsert.ts";
import remove from "./delete.ts";
import get from "./get.ts";

const tools: AnyTool[] = [list, upsert, remove, get];

export default tools;
