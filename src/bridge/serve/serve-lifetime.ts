/**
 * How long `agent-hooks serve` lives: until it is told to stop, or until the process that started it is gone.
 *
 * @module
 */

/**
 * Why the server is going down: a signal, or its parent gone.
 *
 * @internal
 */
export type ServeEnd = 'SIGTERM' | 'SIGINT' | 'SIGHUP' | 'parent gone';

/** The signals that end the server gracefully: a process manager's TERM, Ctrl-C, and the terminal closing. */
const END_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Resolves once the server must go down: on SIGTERM, SIGINT or SIGHUP, or once its parent process is gone — its
 * parent PID changes, as it does when an orphan is taken over by PID 1 or a subreaper. The parent is watched because
 * a starter that does not pass its signals on leaves the server running on its own: `npx agent-hooks serve` runs it
 * under `sh -c`, and a TERM to `npx` ends npm and the shell but never reaches the server, which went on answering
 * under PID 1. A server started by PID 1 itself (a container's entry point, a service manager) keeps that parent.
 *
 * @param pollMs how often the parent is looked at (a `getppid`, nothing more), on a timer that keeps nothing alive.
 * @internal
 */
export function serveEnding(pollMs = 500): { readonly ended: Promise<ServeEnd>; readonly off: () => void } {
  let off = (): void => undefined;
  const ended = new Promise<ServeEnd>((resolve) => {
    const parent = process.ppid;
    const handlers = END_SIGNALS.map((signal) => [signal, () => resolve(signal)] as const);
    for (const [signal, handler] of handlers) process.once(signal, handler);
    const timer = setInterval(() => {
      if (process.ppid !== parent) resolve('parent gone');
    }, pollMs);
    timer.unref();
    off = () => {
      clearInterval(timer);
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
  });
  return { ended, off: () => off() };
}
