// Graceful shutdown of one HTTP server: stop accepting connections, let the requests in flight finish (bounded), and
// close keep-alive connections as they fall idle, so a load balancer moves to the other processes without a failed request.
import type { IncomingMessage, Server, ServerResponse } from "node:http";

const POLL_MS = 50;

export class Drain {
  private active = false;
  private inFlight = 0;
  private readonly server: Server;
  private readonly longLived: (req: IncomingMessage) => boolean;

  /**
   * Call it once the server's other request listeners are attached (socket.io replaces them when it attaches).
   * `longLived` requests (socket.io long-polls) are not waited for: the chat server ends them itself.
   */
  constructor(server: Server, longLived: (req: IncomingMessage) => boolean = () => false) {
    this.server = server;
    this.longLived = longLived;
    server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => this.track(req, res));
  }

  private track(req: IncomingMessage, res: ServerResponse): void {
    // A request that still arrives on an open keep-alive connection is answered, and its connection closed after it.
    if (this.active) res.setHeader("Connection", "close");
    if (this.longLived(req)) return;
    this.inFlight++;
    res.once("close", () => this.inFlight--);
  }

  /**
   * Stops accepting connections and waits until no request is in flight and `settled()` (other work, e.g. chat turns)
   * holds, at most `timeoutMs`. Returns whether everything finished in time; the caller cuts off what is left.
   */
  async drain(timeoutMs: number, settled: () => boolean = () => true): Promise<boolean> {
    this.active = true;
    this.server.close();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // Connections whose last response went out before the drain began stay open until closed here.
      this.server.closeIdleConnections();
      if (this.inFlight === 0 && settled()) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))));
    }
  }
}
