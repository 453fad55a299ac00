// settings.agent_access (internal): whether and how the shop sells to AI agents — the agent doors (UCP, ACP) read it
// before a request sells, without the rest of the commerce settings settings.get_commerce shows.
import { z } from "zod";
import { defineTool, READ } from "../tool.ts";
import { agentAccess, getCommerce } from "./commerce.ts";

export default defineTool({
  name: "settings.agent_access",
  description: "The shop's agent checkout access (open, signed, key or off). Returns {agentAccess}.",
  input: z.strictObject({}),
  output: z.strictObject({ agentAccess }),
  scope: "settings:read",
  anonymous: false,
  audited: false,
  internal: true,
  annotations: READ,
  examples: [{}],
  async handler(_input, ctx) {
    return { agentAccess: (await getCommerce(ctx.db)).agentAccess };
  },
});
