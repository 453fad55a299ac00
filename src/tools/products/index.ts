// The products.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import search from "./search.ts";
import get from "./get.ts";
import lookup from "./lookup.ts";
import create from "./create.ts";
import update from "./update.ts";
import setSafety from "./set_safety.ts";
import getSafety from "./get_safety.ts";
import imageAlts from "./image_alts.ts";
import remove from "./delete.ts";
import attachImage from "./attach_image.ts";
import detachImage from "./detach_image.ts";
import listVariants from "./list_variants.ts";
import upsertVariant from "./upsert_variant.ts";
import deleteVariant from "./delete_variant.ts";
import adjustStock from "./adjust_stock.ts";
import bulkUpdatePrices from "./bulk_update_prices.ts";
import getAnswers from "./get_answers.ts";
import compare from "./compare.ts";
import listLowStock from "./list_low_stock.ts";
import importProducts from "./import.ts";

const tools: AnyTool[] = [
  search,
  get,
  lookup,
  create,
  update,
  setSafety,
  getSafety,
  imageAlts,
  remove,
  attachImage,
  detachImage,
  listVariants,
  upsertVariant,
  deleteVariant,
  adjustStock,
  bulkUpdatePrices,
  getAnswers,
  compare,
  listLowStock,
  importProducts,
];

export default tools;
