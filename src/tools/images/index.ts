// The images.* tools, in catalogue order.
import type { AnyTool } from "../tool.ts";
import searchStockPhotos from "./search_stock_photos.ts";
import upload from "./upload.ts";

const tools: AnyTool[] = [searchStockPhotos, upload];

export default tools;
