// The staff.* tools: staff users of the admin web created (or invited), listed, given scopes or a new password, and
// deleted; and the anonymous pair behind "Glemt adgangskode?" and the e-mailed password links.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import remove from "./delete.ts";
import list from "./list.ts";
import requestPasswordReset from "./request_password_reset.ts";
import resetPassword from "./reset_password.ts";
import setPassword from "./set_password.ts";
import setScopes from "./set_scopes.ts";
import redeemSetup from "./redeem_setup.ts";
import signIn from "./sign_in.ts";
import signOut from "./sign_out.ts";

// The internal ones last: the admin door's sign-in, sign-out and first-run setup, listed nowhere.
const tools: AnyTool[] = [create, list, setScopes, resetPassword, requestPasswordReset, setPassword, remove, signIn, signOut, redeemSetup];

export default tools;
