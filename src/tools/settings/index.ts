// The settings.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import get from "./get.ts";
import updateBranding from "./update_branding.ts";
import updateShipping from "./update_shipping.ts";
import updateContact from "./update_contact.ts";
import updatePolicies from "./update_policies.ts";
import getPolicies from "./get_policies.ts";
import listFeatures from "./list_features.ts";
import setFeature from "./set_feature.ts";
import getCommerce from "./get_commerce.ts";
import updateCommerce from "./update_commerce.ts";
import updateShippingRates from "./update_shipping_rates.ts";
import getSaleTerms from "./get_sale_terms.ts";
import updateSaleTerms from "./update_sale_terms.ts";
import agentAccess from "./agent_access.ts";
import assistantContext from "./assistant_context.ts";

const tools: AnyTool[] = [get, updateBranding, updateShipping, updateContact, updatePolicies, getPolicies, listFeatures, setFeature, getCommerce, updateCommerce, updateShippingRates, getSaleTerms, updateSaleTerms, agentAccess, assistantContext];

export default tools;
