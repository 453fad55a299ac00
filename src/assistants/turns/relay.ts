// Turns followed across processes (REDIS_URL): a resume or replay that lands on another process than the one running the
// turn gets the turn's frames through the socket.io adapter, and an error frame within seconds when that process is gone.
import crypto from "node:crypto";
import type { Namespace } from "socket.io";
import { describeFailure } from "../failure.ts";
import type { Follower, Following, Listener, StreamFrame, StreamRegistry, TurnStream } from "./streams.ts";

/** What a peer sends a follow: that it found the turn, then the turn's frames. */
type RelayFrame = StreamFrame | { type: "start" };

interface FollowRequest {
  follow: string;
  key: string;
  afterSequence: number;
  /** The peer asked to relay its finished turn (when no peer runs one); without it only a running turn is relayed. */
  peer?: string;
}

/** A peer's answer: it relays the turn, it has only a finished one (its peer id), or it has none. */
type FollowAnswer = "relayed" | { finished: string } | null;

/** How often a process asks whether the turns it follows elsewhere are still served. */
const CHECK_MS = 2_000;
/** Checks in a row that went unanswered by some peer and did not hear from the serving one, before the follow counts as lost. */
const MISSES = 2;
/** Longer than the adapter's own request timeout (PEER_TIMEOUT_MS in socket.ts). */
const ASK_MS = 5_000;
const LOST = describeFailure(new Error("the process running the turn is gone"));

interface Followed {
  follower: Follower;
  /** A peer said it relays the turn (or its first frame came): only then is the follow checked. */
  confirmed: boolean;
  started: boolean;
  misses: number;
}

export class TurnRelay {
  private readonly id = crypto.randomUUID();
  /** Turns of other processes followed here, by follow id. */
  private readonly following = new Map<string, Followed>();
  /** Turns of this process followed from elsewhere, by follow id. */
  private readonly serving = new Map<string, { stream: TurnStream; listener: Listener }>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private readonly nsp: Namespace;
  private readonly streams: StreamRegistry;

  constructor(nsp: Namespace, streams: StreamRegistry) {
    this.nsp = nsp;
    this.streams = streams;
    nsp.on("chat:follow", (request: FollowRequest, ack: (answer: FollowAnswer) => void) => ack(this.serve(request)));
    nsp.on("chat:frame", (follow: string, frame: RelayFrame) => this.receive(follow, frame));
    nsp.on("chat:detach", (follow: string, graceMs: number) => {
      const served = this.serving.get(follow);
      this.serving.delete(follow);
      served?.stream.detach(served.listener, graceMs);
    });
    nsp.on("chat:abort", (follow: string) => this.serving.get(follow)?.stream.abort("aborted by the client"));
    nsp.on("chat:serving", (follows: string[], ack: (served: string[]) => void) => ack(follows.filter((follow) => this.serving.has(follow))));
  }

  /**
   * Follows the chat's turn on another process: the running one, or else (unless `finishedHere`, which the caller
   * prefers) one that just finished. Undefined when no peer has one.
   */
  async follow(key: string, follower: Follower, afterSequence: number, finishedHere: boolean): Promise<Following | undefined> {
    const follow = crypto.randomUUID();
    const followed: Followed = { follower, confirmed: false, started: false, misses: 0 };
    this.following.set(follow, followed);
    let { answers } = await this.ask<FollowAnswer>("chat:follow", { follow, key, afterSequence } satisfies FollowRequest);
    const peer = answers.flatMap((answer) => (answer !== null && typeof answer === "object" ? [answer.finished] : []))[0];
    if (!answers.includes("relayed") && !finishedHere && peer) {
      ({ answers } = await this.ask<FollowAnswer>("chat:follow", { follow, key, afterSequence, peer } satisfies FollowRequest));
    }
    if (!answers.includes("relayed") && !followed.started) {
      this.following.delete(follow);
      return undefined;
    }
    followed.confirmed = true;
    this.schedule();
    return {
      detach: (graceMs) => {
        if (this.following.delete(follow)) this.nsp.serverSideEmit("chat:detach", follow, graceMs);
      },
      abort: () => this.nsp.serverSideEmit("chat:abort", follow),
    };
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** A peer's follow request: relays this process's turn when it is the one asked for. */
  private serve({ follow, key, afterSequence, peer }: FollowRequest): FollowAnswer {
    const stream = this.streams.find(key);
    if (!stream || (peer !== undefined && peer !== this.id)) return null;
    if (!stream.running && peer === undefined) return { finished: this.id };
    const listener: Listener = {
      send: (frame) => {
        if (frame.type !== "chunk") this.serving.delete(follow);
        this.nsp.serverSideEmit("chat:frame", follow, frame);
      },
    };
    this.serving.set(follow, { stream, listener });
    this.nsp.serverSideEmit("chat:frame", follow, { type: "start" } satisfies RelayFrame);
    stream.attach(listener, { afterSequence, replay: true });
    return "relayed";
  }

  private receive(follow: string, frame: RelayFrame): void {
    const followed = this.following.get(follow);
    if (!followed) return;
    if (frame.type === "start") {
      followed.started = true;
      followed.follower.start();
      return;
    }
    if (frame.type !== "chunk") this.following.delete(follow);
    followed.follower.send(frame);
  }

  private schedule(): void {
    if (this.timer || this.closed || this.following.size === 0) return;
    this.timer = setTimeout(() => void this.check(), CHECK_MS).unref();
  }

  /**
   * Asks the peers which of the confirmed follows they still serve; one no peer serves ends with an error frame. A
   * serving peer relays a turn's last frame before it answers a check (one Redis connection keeps their order), so a
   * follow still open here that no peer serves lost its process. When some peer did not answer in time, the follow ends
   * only after MISSES such checks (a process that vanished without Redis noticing).
   */
  private async check(): Promise<void> {
    const asked = [...this.following].flatMap(([follow, followed]) => (followed.confirmed ? [follow] : []));
    if (asked.length > 0) {
      const { answers, complete } = await this.ask<string[]>("chat:serving", asked);
      const served = new Set(answers.flat());
      for (const follow of asked) {
        const followed = this.following.get(follow);
        if (!followed) continue;
        if (served.has(follow)) followed.misses = 0;
        else if (complete || ++followed.misses >= MISSES) {
          this.following.delete(follow);
          followed.follower.send({ type: "error", errorText: LOST, code: "internal" });
        }
      }
    }
    this.timer = undefined;
    this.schedule();
  }

  /**
   * A server-side emit to every peer, with their answers (those that came in time when one did not answer). The adapter
   * times its requests out, but not the count of peers it asks Redis for first: ASK_MS bounds the wait during an outage.
   */
  private ask<T>(event: string, request: unknown): Promise<{ answers: T[]; complete: boolean }> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ answers: [], complete: false }), ASK_MS);
      this.nsp.serverSideEmit(event, request, (error: Error | null, answers: T[] | undefined) => {
        clearTimeout(timer);
        resolve({ answers: answers ?? [], complete: !error });
      });
    });
  }
}
