// The webhooks.* tools: integrators' endpoints for signed outbound events (Standard Webhooks), their log, test and resend.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import deliveries from "./deliveries.ts";
import del from "./delete.ts";
import enable from "./enable.ts";
import list from "./list.ts";
import resend from "./resend.ts";
import test from "./test.ts";

const tools: AnyTool[] = [create, list, del, test, deliveries, resend, enable];

export default tools;
