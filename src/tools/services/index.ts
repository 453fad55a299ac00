// The services.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import update from "./update.ts";
import list from "./list.ts";
import get from "./get.ts";
import remove from "./delete.ts";

const tools: AnyTool[] = [create, update, list, get, remove];

export default tools;
