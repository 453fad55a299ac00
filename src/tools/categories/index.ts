// The categories.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";

const tools: AnyTool[] = [list];

export default tools;
