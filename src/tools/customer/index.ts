// The customer.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import lookupByEmail from "./lookup_by_email.ts";
import lookupByPhone from "./lookup_by_phone.ts";
import list from "./list.ts";
import getOrders from "./get_orders.ts";
import listAddresses from "./list_addresses.ts";
import saveAddress from "./save_address.ts";
import deleteAddress from "./delete_address.ts";

const tools: AnyTool[] = [lookupByEmail, lookupByPhone, list, getOrders, listAddresses, saveAddress, deleteAddress];

export default tools;
