// The pages.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";
import upsert from "./upsert.ts";
import remove from "./delete.ts";
import getLayout from "./get_layout.ts";
import get from "./get.ts";
import setLayout from "./set_layout.ts";

const tools: AnyTool[] = [list, upsert, remove, getLayout, get, setLayout];

export default tools;
