// The products.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import search from "./search.ts";
import get from "./get.ts";

const tools: AnyTool[] = [search, get];

export default tools;
