// The images.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import searchStockPhotos from "./search_stock_photos.ts";

const tools: AnyTool[] = [searchStockPhotos];

export default tools;
