// The customer.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";

const tools: AnyTool[] = [];

export default tools;
