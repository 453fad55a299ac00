// The orders.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import list from "./list.ts";
import get from "./get.ts";
import getByNumber from "./get_by_number.ts";
import getDelivery from "./get_delivery.ts";
import getNumber from "./get_number.ts";
import updateStatus from "./update_status.ts";
import create from "./create.ts";
import refund from "./refund.ts";
import cancel from "./cancel.ts";
import setTracking from "./set_tracking.ts";
import addNote from "./add_note.ts";
import getTimeline from "./get_timeline.ts";
import resendConfirmation from "./resend_confirmation.ts";
import applyPaymentEvent from "./apply_payment_event.ts";
import getPayment from "./get_payment.ts";
import recordEvents from "./record_events.ts";
import payments from "./payments.ts";
import getBalance from "./get_balance.ts";
import changeAddress from "./change_address.ts";
import changeItems from "./change_items.ts";
import changePayment from "./change_payment.ts";
import recordPayment from "./record_payment.ts";
import itemOptions from "./item_options.ts";
import listRefundTasks from "./list_refund_tasks.ts";
import completeRefundTask from "./complete_refund_task.ts";
import pendingRefund from "./pending_refund.ts";
import changeDelivery from "./change_delivery.ts";
import deliveryOptions from "./delivery_options.ts";
import getOutstanding from "./get_outstanding.ts";
import reopenPayment from "./reopen_payment.ts";

const tools: AnyTool[] = [list, get, getByNumber, getNumber, getDelivery, updateStatus, create, refund, cancel, setTracking, addNote, getTimeline, resendConfirmation, getPayment, applyPaymentEvent, recordEvents, payments, getBalance, changeAddress, changeItems, changePayment, recordPayment, itemOptions, listRefundTasks, completeRefundTask, pendingRefund, changeDelivery, deliveryOptions, getOutstanding, reopenPayment];

export default tools;
