// The returns.* tools: withdrawals, complaints and exchanges from request to refund.
import type { AnyTool } from "../tool.ts";
import request from "./request.ts";
import withdraw from "./withdraw.ts";
import list from "./list.ts";
import get from "./get.ts";
import approve from "./approve.ts";
import reject from "./reject.ts";
import receive from "./receive.ts";
import releaseExchange from "./release_exchange.ts";
import policy from "./policy.ts";

const tools: AnyTool[] = [request, withdraw, list, get, approve, reject, receive, releaseExchange, policy];

export default tools;
