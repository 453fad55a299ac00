// The user.* tools: the catalogue's three, then sign-in.
import type { AnyTool } from "../tool.ts";
import getLastShipping from "./get_last_shipping.ts";
import listOrders from "./list_orders.ts";
import getOrderStatus from "./get_order_status.ts";
import requestLoginCode from "./request_login_code.ts";
import verifyLoginCode from "./verify_login_code.ts";
import signOut from "./sign_out.ts";
import listGiftCards from "./list_gift_cards.ts";
import listApps from "./list_apps.ts";
import revokeApp from "./revoke_app.ts";

const tools: AnyTool[] = [getLastShipping, listOrders, getOrderStatus, requestLoginCode, verifyLoginCode, signOut, listGiftCards, listApps, revokeApp];

export default tools;
