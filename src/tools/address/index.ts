// The address.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import autocomplete from "./autocomplete.ts";
import validate from "./validate.ts";
import lookupPostalCode from "./lookup_postal_code.ts";

const tools: AnyTool[] = [autocomplete, validate, lookupPostalCode];

export default tools;
