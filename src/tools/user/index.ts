// The user.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import getLastShipping from "./get_last_shipping.ts";
import listOrders from "./list_orders.ts";
import getOrderStatus from "./get_order_status.ts";

const tools: AnyTool[] = [getLastShipping, listOrders, getOrderStatus];

export default tools;
