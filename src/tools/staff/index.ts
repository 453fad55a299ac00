// The staff.* tools: staff users of the admin web created, listed, given scopes or a new password, and deleted.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import remove from "./delete.ts";
import list from "./list.ts";
import resetPassword from "./reset_password.ts";
import setScopes from "./set_scopes.ts";

const tools: AnyTool[] = [create, list, setScopes, resetPassword, remove];

export default tools;
