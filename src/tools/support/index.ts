// The support.* tools: hand-off to a person and the staff queue.
import type { AnyTool } from "../tool.ts";
import createTicket from "./create_ticket.ts";
import listTickets from "./list_tickets.ts";
import getTicket from "./get_ticket.ts";
import reply from "./reply.ts";
import close from "./close.ts";

const tools: AnyTool[] = [createTicket, listTickets, getTicket, reply, close];

export default tools;
