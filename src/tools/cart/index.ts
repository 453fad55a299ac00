// The cart.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import add from "./add.ts";
import updateQuantity from "./update_quantity.ts";
import remove from "./remove.ts";
import getSummary from "./get_summary.ts";
import clear from "./clear.ts";
import setShippingAddress from "./set_shipping_address.ts";
import checkout from "./checkout.ts";
import getShippingProgress from "./get_shipping_progress.ts";
import deliveryOptions from "./delivery_options.ts";

const tools: AnyTool[] = [add, updateQuantity, remove, getSummary, clear, setShippingAddress, checkout, getShippingProgress, deliveryOptions];

export default tools;
