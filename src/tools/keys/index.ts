// The keys.* tools: API keys created, listed, narrowed and revoked, never beyond the caller's own scopes.
import type { AnyTool } from "../tool.ts";
import create from "./create.ts";
import list from "./list.ts";
import revoke from "./revoke.ts";
import setAcp from "./set_acp.ts";
import setScopes from "./set_scopes.ts";
import acpSigningSecret from "./acp_signing_secret.ts";
import rotateSigning from "./rotate_signing.ts";
import listGrants from "./list_grants.ts";
import revokeGrant from "./revoke_grant.ts";

const tools: AnyTool[] = [create, list, revoke, setAcp, setScopes, acpSigningSecret, rotateSigning, listGrants, revokeGrant];

export default tools;
