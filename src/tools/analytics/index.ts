// The analytics.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import abandonedCarts from "./abandoned_carts.ts";
import cancelReasons from "./cancel_reasons.ts";
import channelBreakdown from "./channel_breakdown.ts";
import salesTimeseries from "./sales_timeseries.ts";
import summary from "./summary.ts";
import topProducts from "./top_products.ts";

const tools: AnyTool[] = [summary, salesTimeseries, topProducts, channelBreakdown, abandonedCarts, cancelReasons];

export default tools;
