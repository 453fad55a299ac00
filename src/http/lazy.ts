// Doors a process may never serve load with their first request instead of at start-up (docs/benchmarks.md, "The
// embedded default"): the MCP door and its SDK, the UCP and ACP doors, the web pages.
import type { NextFunction, Request, RequestHandler, Response } from "express";

/**
 * A handler that builds the real one (importing its modules) on the first request it sees and hands every request to
 * it from then on. Requests arriving while it loads wait for the same load; a failed load answers those requests with
 * the error (the app's error handler) and is tried again by the next request.
 */
export function lazyHandler(load: () => Promise<RequestHandler>): RequestHandler & { loaded(): boolean } {
  let handler: RequestHandler | undefined;
  let loading: Promise<RequestHandler> | undefined;
  const lazy = (req: Request, res: Response, next: NextFunction): void => {
    if (handler) {
      void handler(req, res, next);
      return;
    }
    loading ??= load();
    loading.then(
      (loaded) => {
        handler = loaded;
        void loaded(req, res, next);
      },
      (error: unknown) => {
        loading = undefined;
        next(error);
      },
    );
  };
  return Object.assign(lazy, { loaded: () => handler !== undefined });
}

/** A lazy handler entered only by the paths it may serve: any other request passes by without loading it. */
export function lazyDoor(paths: RegExp, load: () => Promise<RequestHandler>): RequestHandler & { loaded(): boolean } {
  const lazy = lazyHandler(load);
  const door = (req: Request, res: Response, next: NextFunction): void => {
    if (paths.test(req.path)) lazy(req, res, next);
    else next();
  };
  return Object.assign(door, { loaded: lazy.loaded });
}
