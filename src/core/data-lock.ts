// The exclusive lock on an embedded-database directory: one process per PGlite data directory, ever. A lock file names
// the holder (pid and start time, so a crashed holder's lock is recognised as stale) and, for a server, its CLI channel.
import fs from "node:fs";
import path from "node:path";

const LOCK_FILE = "shop.lock";
/** A takeover guard older than this was left by a process that died in the middle of taking over a stale lock. */
const GUARD_STALE_MS = 10_000;
/** A lock file still unreadable after this long was left half-written by a process that died creating it. */
const UNREADABLE_STALE_MS = 2_000;

export interface LockHolder {
  pid: number;
  /** The holder's start time (Linux: clock ticks since boot from /proc/<pid>/stat), to tell a reused pid apart. */
  startTime: string | null;
  /** What the holder is, for the message another process shows: "server", "shop keys create" … */
  what: string;
  /** The holder's local CLI channel (a Unix socket path), once it serves one. */
  socket?: string;
}

export class DataDirBusy extends Error {
  readonly dataDir: string;
  readonly holder: LockHolder;

  constructor(dataDir: string, holder: LockHolder) {
    super(
      `The data directory ${dataDir} is in use by another shop process (pid ${holder.pid}, ${holder.what}). The embedded ` +
        "database allows one process per directory: stop that process first, or use PostgreSQL (DATABASE_URL) for several.",
    );
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Records the holder's CLI channel in the lock file, so `shop` commands find the running server. */
  advertise(socket: string): void;
  release(): void;
}

/** Lock files this process holds (a second open of the same directory in one process is refused too). */
const held = new Set<string>();

/** Takes the lock on `dataDir` for this process, replacing a stale one; throws DataDirBusy when a live process holds it. */
function lockDataDir(dataDir: string, what: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, startTime: startTimeOf(process.pid), what };
  for (let attempt = 0; attempt < 50; attempt++) {
    if (!held.has(file) && create(file, me)) {
      held.add(file);
      return handle(file, me);
    }
    const holder = readHolder(file);
    if (holder === "unreadable") {
      // Being written this instant by its creator, or left half-written by one that died: only the latter grows old.
      if (ageMs(file) > UNREADABLE_STALE_MS) removeStale(file, holder);
      else sleep(50);
    } else if (holder && (held.has(file) || isAlive(holder))) {
      throw new DataDirBusy(dataDir, holder);
    } else if (holder) {
      removeStale(file, holder);
    }
  }
  throw new Error(`Could not take the lock ${file}: it keeps changing hands.`);
}

/**
 * Takes the lock like lockDataDir, but waits up to `waitMs` while a `shop …` command holds it (commands are short;
 * a server or anything else holding it fails at once).
 */
export async function lockDataDirPatiently(dataDir: string, what: string, waitMs: number): Promise<DataDirLock> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return lockDataDir(dataDir, what);
    } catch (error) {
      if (!(error instanceof DataDirBusy) || !error.holder.what.startsWith("shop ") || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The live process holding `dataDir`, or null when the directory is free (no lock, or a stale one). */
export function dataDirHolder(dataDir: string): LockHolder | null {
  const file = path.join(dataDir, LOCK_FILE);
  const holder = readHolder(file);
  if (holder === "unreadable") return ageMs(file) > UNREADABLE_STALE_MS ? null : { pid: 0, startTime: null, what: "starting" };
  return holder && (held.has(file) || isAlive(holder)) ? holder : null;
}

function handle(file: string, me: LockHolder): DataDirLock {
  let current = me;
  return {
    file,
    advertise(socket) {
      current = { ...current, socket };
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(current), { mode: 0o600 });
      fs.renameSync(temp, file);
    },
    release() {
      if (!held.delete(file)) return;
      const holder = readHolder(file);
      if (holder !== "unreadable" && holder?.pid === current.pid && holder.startTime === current.startTime) fs.rmSync(file, { force: true });
    },
  };
}

function create(file: string, me: LockHolder): boolean {
  try {
    fs.writeFileSync(file, JSON.stringify(me), { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** The holder a lock file names; null when there is no lock file, "unreadable" while it is empty or garbled. */
function readHolder(file: string): LockHolder | null | "unreadable" {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== "number") return "unreadable";
    return { pid: value.pid, startTime: value.startTime ?? null, what: value.what ?? "unknown", ...(value.socket ? { socket: value.socket } : {}) };
  } catch {
    return "unreadable";
  }
}

function ageMs(file: string): number {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? Date.now() - stat.mtimeMs : 0;
}

/** Whether the holder still runs: its pid exists and, where the OS tells, it started when the lock says it did. */
function isAlive(holder: LockHolder): boolean {
  if (holder.pid <= 0 || holder.pid === process.pid) return false; // not ours (see `held`): a previous life of this pid
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = startTimeOf(holder.pid);
  return started === null || holder.startTime === null || started === holder.startTime;
}

/**
 * Removes a stale lock file, guarded by a directory so that of two processes finding the same stale lock only one
 * removes it (the other would otherwise remove the winner's fresh lock).
 */
function removeStale(file: string, stale: LockHolder | "unreadable"): void {
  const guard = `${file}.takeover`;
  try {
    fs.mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const age = Date.now() - (fs.statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > GUARD_STALE_MS) fs.rmSync(guard, { recursive: true, force: true });
    else sleep(20);
    return;
  }
  try {
    const now = readHolder(file);
    const still = now === "unreadable" || stale === "unreadable"
      ? now === stale && ageMs(file) > UNREADABLE_STALE_MS
      : now !== null && now.pid === stale.pid && now.startTime === stale.startTime && !isAlive(now);
    if (still) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { recursive: true, force: true });
  }
}

/** Linux: the process start time in clock ticks since boot (field 22 of /proc/<pid>/stat); null elsewhere. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
