// The audit.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";
import revert from "./revert.ts";
import get from "./get.ts";

const tools: AnyTool[] = [list, revert, get];

export default tools;
