// The giftcards.* tools: gift cards and store credit.
import type { AnyTool } from "../tool.ts";
import issue from "./issue.ts";
import get from "./get.ts";
import redeem from "./redeem.ts";
import list from "./list.ts";

const tools: AnyTool[] = [issue, get, redeem, list];

export default tools;
