// `shop feed acp DIR`: the ACP product feed as files (metadata.json, products.jsonl) for platforms that ingest snapshots,
// the same bytes GET /acp/feed/… serves; the composition root builds them (CommandContext.acpFeed), this writes them.
import fs from "node:fs/promises";
import path from "node:path";

/** The feed as the command needs it: its two files' contents and how many products they hold. */
export interface AcpFeedFiles {
  metadata: string;
  /** One Product per line, each line ending in a newline. */
  products: string;
  count: number;
}

export async function writeAcpFeed(files: AcpFeedFiles, dir: string): Promise<{ count: number; files: string[] }> {
  await fs.mkdir(dir, { recursive: true });
  const written = [path.join(dir, "metadata.json"), path.join(dir, "products.jsonl")];
  await fs.writeFile(written[0]!, `${files.metadata}\n`);
  await fs.writeFile(written[1]!, files.products);
  return { count: files.count, files: written };
}
